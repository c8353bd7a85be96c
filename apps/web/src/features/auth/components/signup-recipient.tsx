import type { MemberLandingProfile } from '@amora/contracts/core';
import { FictionalIcon } from '@/shared/site/fictional-icon';

/** Whom the signup's first message goes to: the profile's photo, name, age and city, labelled when fictional. */
export function SignupRecipient({ profile }: { profile: MemberLandingProfile }) {
  return (
    <div className="signup-recipient" data-testid="signup-recipient" data-profile-id={profile.id}>
      {profile.photo ? (
        <img
          className="signup-recipient-photo"
          src={profile.photo.src}
          srcSet={profile.photo.srcSet}
          sizes="48px"
          alt=""
          width={48}
          height={60}
          decoding="async"
        />
      ) : null}
      <span className="signup-recipient-text">
        <strong>
          {profile.name}, {profile.age}
        </strong>
        {profile.city && <span>{profile.city}</span>}
      </span>
      {profile.is_fictional && <FictionalIcon size={20} />}
    </div>
  );
}
