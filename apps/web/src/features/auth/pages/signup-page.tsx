import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams } from 'react-router';
import { FormPage } from '@/components/ui/form-page';
import { useUser } from '@/shared/session/user';
import { useSettings } from '@/shared/site/api/get-settings';
import { useCanSignUp } from '@/shared/site/use-can-sign-up';
import { useLocalePath } from '@/shared/site/use-locale';
import { usePageTitle } from '@/shared/site/use-page-title';
import { SIGNUP_FLOW_COMPLETE } from '../components/signup-events';
import { SignupForm } from '../components/signup-form';
import { SignupsClosed } from '../components/signups-closed';

/** /signup and /members/{id}/signup (with a first message to that member). Members are sent to /members. */
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
  if (wasMember) return <Navigate to={localize('/members')} replace />;
  const handleDone = () => {
    navigate(localize('/complete-signup'));
    window.dispatchEvent(new Event(SIGNUP_FLOW_COMPLETE));
  };
  return (
    <FormPage title={title}>
      {canSignUp ? <SignupForm profileId={profileId} withMessage={profileId !== undefined} onDone={handleDone} /> : <SignupsClosed />}
    </FormPage>
  );
}

export { SignupPage as Component };
