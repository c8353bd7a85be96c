import { useParams } from 'react-router';
import { ProfileGiftButton, ReportProfileButton } from '@/features/chat/components/profile-actions';
import { LikeButton } from '@/features/likes/components/like-button';
import { useMarkLikeSeen } from '@/features/likes/use-mark-like-seen';
import { MemberPage } from '@/features/profiles/pages/member-page';
import { profileIdOf } from '@/features/profiles/pages/member-page.data';
import { useRouteName } from '@/shared/site/use-route-name';

/**
 * /members/{id} and /likes/m/{id}: the member page of features/profiles with the like button of
 * features/likes and the chat's gift picker and report dialog of features/chat. Opened from my likes
 * (/likes/m/{id}), their like to me is no longer new.
 */
export function Component() {
  const { id } = useParams();
  const profileId = profileIdOf(id);
  const route = useRouteName();
  useMarkLikeSeen(route === 'likes-m-id' && profileId ? profileId : null);
  return (
    <MemberPage
      profileId={profileId}
      likeButton={(profile) => (
        <LikeButton
          profileId={profile.id}
          source="profile"
          isBlock
          profile={{ name: profile.name, isFictional: profile.isFictional, imageUrl: profile.imageUrl }}
        />
      )}
      giftButton={(profile) => <ProfileGiftButton profile={profile} />}
      reportButton={(profile) => <ReportProfileButton profile={profile} />}
    />
  );
}
