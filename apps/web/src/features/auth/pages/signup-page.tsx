import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams } from 'react-router';
import { FormPage } from '@/components/ui/form-page';
import { landingMessageFor } from '@/shared/profiles/landing-message';
import { useUser } from '@/shared/session/user';
import { useSettings } from '@/shared/site/api/get-settings';
import { useCanSignUp } from '@/shared/site/use-can-sign-up';
import { useLocalePath } from '@/shared/site/use-locale';
import { usePageTitle } from '@/shared/site/use-page-title';
import { useSignupRecipient } from '../api/signup-recipient';
import { SIGNUP_FLOW_COMPLETE } from '../components/signup-events';
import { SignupForm } from '../components/signup-form';
import { SignupRecipient } from '../components/signup-recipient';
import { SignupsClosed } from '../components/signups-closed';

/**
 * /signup and /members/{id}/signup (with a first message to that member). Members are sent to /members, or from a
 * profile's signup to that profile's page.
 */
export function SignupPage() {
  const { t } = useTranslation();
  const settings = useSettings();
  const canSignUp = useCanSignUp();
  const title = canSignUp ? t('signup.title', { site: settings.name }) : t('signup.closedTitle');
  usePageTitle(title);
  const [wasMember] = useState(useUser() !== null);
  const navigate = useNavigate();
  const localize = useLocalePath();
  const { id } = useParams();
  const profileId = id && /^\d+$/.test(id) ? Number(id) : undefined;
  const recipient = useSignupRecipient(canSignUp && !wasMember ? profileId : undefined).data;
  // The message begun on the profile's member landing (landing3), if any: read once, as the form starts.
  const [defaultMessage] = useState(() => (profileId === undefined ? '' : landingMessageFor(profileId)));
  if (wasMember) return <Navigate to={localize(profileId === undefined ? '/members' : `/members/${profileId}`)} replace />;
  const handleDone = () => {
    navigate(localize('/complete-signup'));
    window.dispatchEvent(new Event(SIGNUP_FLOW_COMPLETE));
  };
  return (
    <FormPage title={title}>
      {canSignUp ? (
        <>
          {recipient && <SignupRecipient profile={recipient} />}
          <SignupForm
            profileId={profileId}
            withMessage={profileId !== undefined}
            messageLabel={recipient ? t('signup.messageTo', { name: recipient.name }) : undefined}
            defaultMessage={defaultMessage}
            onDone={handleDone}
          />
        </>
      ) : (
        <SignupsClosed />
      )}
    </FormPage>
  );
}

export { SignupPage as Component };
