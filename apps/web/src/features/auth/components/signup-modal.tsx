import { BREAKPOINTS } from '@amora/contracts/core';
import { lazy, type ReactNode, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Dialog } from '@/components/ui/dialog';
import { Skeleton, SkeletonRegion } from '@/components/ui/skeleton';
import { OpenSignupContext, type SignupOptions } from '@/shared/modals/open-signup';
import { useSettings } from '@/shared/site/api/get-settings';
import { useCanSignUp } from '@/shared/site/use-can-sign-up';
import { useLocalePath } from '@/shared/site/use-locale';
import { SIGNUP_FLOW_COMPLETE, SIGNUP_STARTED } from './signup-events';
import { SignupsClosed } from './signups-closed';

/** The form (with zod and react-hook-form) loads when the modal first opens, not with the first page. */
const SignupForm = lazy(() => import('./signup-form').then((m) => ({ default: m.SignupForm })));

/** The form's shape while its code loads: four fields, the terms line and the button. */
function SignupFormSkeleton({ label }: { label: string }) {
  return (
    <SkeletonRegion label={label}>
      {[0, 1, 2, 3].map((i) => (
        <div className="mb-3" key={i}>
          <Skeleton width="35%" />
          <Skeleton shape="rect" width="100%" height={44} />
        </div>
      ))}
      <Skeleton width="70%" className="mb-3" />
      <Skeleton shape="rect" width="100%" height={48} />
    </SkeletonRegion>
  );
}

export function SignupModalProvider({ children }: { children: ReactNode }) {
  const [options, setOptions] = useState<SignupOptions | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const navigate = useNavigate();
  const localize = useLocalePath();
  const { t } = useTranslation();
  const settings = useSettings();
  const canSignUp = useCanSignUp();

  useEffect(() => {
    const handleStart = () => setIsBusy(true);
    const handleDone = () => setIsBusy(false);
    window.addEventListener(SIGNUP_STARTED, handleStart);
    window.addEventListener(SIGNUP_FLOW_COMPLETE, handleDone);
    return () => {
      window.removeEventListener(SIGNUP_STARTED, handleStart);
      window.removeEventListener(SIGNUP_FLOW_COMPLETE, handleDone);
    };
  }, []);

  const open = useCallback(
    (next: SignupOptions = {}) => {
      if (window.innerWidth < BREAKPOINTS.md) {
        navigate(localize(next.profileId ? `/members/${next.profileId}/signup` : '/signup'));
      } else {
        setOptions(next);
      }
    },
    [navigate, localize],
  );
  const close = useCallback(() => {
    if (!isBusy) setOptions(null);
  }, [isBusy]);

  const handleDone = () => {
    setOptions(null);
    navigate(localize('/complete-signup'));
    window.dispatchEvent(new Event(SIGNUP_FLOW_COMPLETE));
  };

  const value = useMemo(() => open, [open]);
  return (
    <OpenSignupContext.Provider value={value}>
      {children}
      <Dialog isOpen={options !== null} isDismissible={!isBusy} onClose={close} labelledBy="signup-title" testId="signup-modal">
        <div className="modal-header border-0 pb-0">
          <h2 className="modal-title h4 fw-bold" id="signup-title">
            {canSignUp ? t('signup.title', { site: settings.name }) : t('signup.closedTitle')}
          </h2>
          <button type="button" className="btn-close" aria-label={t('common.close')} onClick={close} disabled={isBusy} />
        </div>
        <div className="modal-body">
          {options &&
            (canSignUp ? (
              <Suspense fallback={<SignupFormSkeleton label={t('common.loading')} />}>
                <SignupForm profileId={options.profileId} onDone={handleDone} />
              </Suspense>
            ) : (
              <SignupsClosed onLogin={close} />
            ))}
        </div>
      </Dialog>
    </OpenSignupContext.Provider>
  );
}
