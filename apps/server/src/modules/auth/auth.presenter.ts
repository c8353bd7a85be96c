import { NOTIFICATIONS_DISABLED_REASONS, type NotificationsDisabledReason, photoUrl, type User } from '@amora/contracts';
import { searchDefaultsFor } from '../search/search.service';
import type { Site } from '../sites/sites.service';
import type { ProfileRow, UserRow } from './auth.repository';

const isDisabledReason = (entry: string): entry is NotificationsDisabledReason =>
  (NOTIFICATIONS_DISABLED_REASONS as readonly string[]).includes(entry);

/**
 * Rows → the `user` object of spec §3; nothing else of the row leaves the server. The one presenter of every
 * answer that carries the user (GET user.php, login, signup, password reset, reactivation): `counts` are the
 * profile's like_new and the member's unread messages, which every caller must give (auth.service's presentMember
 * counts them).
 */
export function presentUser(
  user: UserRow,
  profile: ProfileRow,
  site: Pick<Site, 'fictionalIcon'>,
  counts: { newLikes: number; unreadMessages: number },
): User {
  return {
    id: user.id,
    email: user.email,
    language: user.language,
    status: user.status,
    credits: user.credits,
    notifications_disabled: user.notificationsDisabled.filter(isDisabledReason),
    read_receipts: user.readReceipts,
    paid_user: user.paidUser,
    trafficsource: user.trafficsource,
    signup_date: user.signupDate.toISOString(),
    fictional_icon: site.fictionalIcon,
    num_unread_messages: counts.unreadMessages,
    search_defaults: searchDefaultsFor(profile),
    profile: {
      id: profile.id,
      name: profile.name,
      country: profile.country,
      status: profile.status,
      like_new: counts.newLikes,
      main_image: profile.mainPhotoId
        ? {
            filename: photoUrl(profile.mainPhotoId, 'large'),
            thumb_filename: photoUrl(profile.mainPhotoId, 'thumb'),
            status: 'active',
            match: photoUrl(profile.mainPhotoId, 'match'),
          }
        : null,
    },
  };
}
