import type { Staff, StaffLoginStep } from '@amora/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import QRCode from 'qrcode';
import { type FormEvent, useCallback, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { ApiRequestError, api } from '@/lib/api-client';
import { meQueryKey } from '../api/console';
import { consoleErrorText } from '../console-error';

type Stage =
  | { name: 'password' }
  | { name: 'code'; enroll?: { secret: string; otpauth_url: string } }
  | { name: 'recovery-codes'; codes: string[]; staff: Staff };

/** The secret as an authenticator app asks for it when typed: in groups of four. */
const groupedSecret = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/** The otpauth address as a QR code (an SVG image, which the page's CSP allows as a data: URL). */
function QrCode({ value, label }: { value: string; label: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let isCurrent = true;
    QRCode.toString(value, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }).then(
      (svg) => isCurrent && setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`),
      () => {},
    );
    return () => {
      isCurrent = false;
    };
  }, [value]);
  return (
    <div className="console-qr" data-testid="enroll-qr">
      {src && <img src={src} alt={label} width={200} height={200} />}
    </div>
  );
}

/** Set up the authenticator: the QR code, or the secret to type in. */
function Enroll({ secret, otpauthUrl }: { secret: string; otpauthUrl: string }) {
  const { t } = useTranslation('console');
  return (
    <div className="mb-3" data-testid="enroll">
      <p>{t('signIn.enrollIntro')}</p>
      <div className="d-flex flex-wrap align-items-center gap-4">
        <QrCode value={otpauthUrl} label={t('signIn.qrLabel')} />
        <div>
          <p className="small text-body-secondary mb-1">{t('signIn.enrollSecret')}</p>
          <code className="console-secret" data-testid="enroll-secret">
            {groupedSecret(secret)}
          </code>
        </div>
      </div>
    </div>
  );
}

/** The ten recovery codes, once, right after the authenticator was set up. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation('console');
  return (
    <div data-testid="recovery-codes">
      <h1 className="h4">{t('signIn.recoveryTitle')}</h1>
      <p>{t('signIn.recoveryIntro', { count: codes.length })}</p>
      <ol className="console-codes list-unstyled">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <Button variant="primary" onClick={onDone} testId="recovery-saved" autoFocus>
        {t('signIn.recoverySaved')}
      </Button>
    </div>
  );
}

/**
 * The console's sign-in: the password, then the authenticator's six-digit code (or a recovery code); on the
 * first sign-in, setting the authenticator up (QR code or typed secret) comes before the code, and the ten
 * recovery codes are shown once after it.
 */
export function SignIn() {
  const { t } = useTranslation('console');
  const queryClient = useQueryClient();
  const [stage, setStage] = useState<Stage>({ name: 'password' });
  const [isRecovery, setIsRecovery] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ids = useId();
  // Each step's first field takes the focus as it appears.
  const focusOnMount = useCallback((element: HTMLElement | null) => element?.focus(), []);

  const enter = (staff: Staff) => queryClient.setQueryData(meQueryKey, staff);
  const after = (step: StaffLoginStep) => {
    setError(null);
    if (step.step === 'done' && step.staff) {
      if (step.recovery_codes?.length) setStage({ name: 'recovery-codes', codes: step.recovery_codes, staff: step.staff });
      else enter(step.staff);
      return;
    }
    setIsRecovery(false);
    setStage({ name: 'code', enroll: step.step === 'enroll' ? step.enroll : undefined });
  };
  const failed = (failure: unknown) => {
    setError(consoleErrorText(t, failure));
    // The password step expired or was never made: start again.
    if (failure instanceof ApiRequestError && failure.code === 'sign_in_required') setStage({ name: 'password' });
  };

  const password = useMutation({
    mutationFn: (body: { email: string; password: string }) => api('POST /api/console/login', { body }),
    onSuccess: after,
    onError: failed,
  });
  const secondFactor = useMutation({
    mutationFn: (body: { code: string } | { recovery_code: string }) => api('POST /api/console/login/second-factor', { body }),
    onSuccess: after,
    onError: failed,
  });

  const submitPassword = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    password.mutate({ email: String(form.get('email') ?? ''), password: String(form.get('password') ?? '') });
  };
  const submitCode = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget).get('code') ?? '');
    secondFactor.mutate(isRecovery ? { recovery_code: value.trim().toLowerCase() } : { code: value.replace(/\s/g, '') });
  };

  const alert = error ? (
    <div className="alert alert-danger py-2" role="alert" data-testid="console-error">
      {error}
    </div>
  ) : null;

  let body: React.ReactNode;
  if (stage.name === 'recovery-codes') {
    body = <RecoveryCodes codes={stage.codes} onDone={() => enter(stage.staff)} />;
  } else if (stage.name === 'code') {
    body = (
      <>
        <h1 className="h4 mb-3">{stage.enroll ? t('signIn.enrollTitle') : t('signIn.codeTitle')}</h1>
        {stage.enroll && <Enroll secret={stage.enroll.secret} otpauthUrl={stage.enroll.otpauth_url} />}
        {alert}
        <form onSubmit={submitCode} noValidate data-testid="code-form">
          {isRecovery ? (
            <FormField label={t('signIn.recoveryCode')} help={t('signIn.recoveryCodeHelp')} key="recovery">
              <input
                id={`${ids}-recovery`}
                name="code"
                className="form-control console-code-input"
                autoComplete="off"
                spellCheck={false}
                required
                ref={focusOnMount}
              />
            </FormField>
          ) : (
            <FormField label={t('signIn.code')} help={t('signIn.codeHelp')} key="code">
              <input
                id={`${ids}-code`}
                name="code"
                className="form-control console-code-input"
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="\d{6}"
                maxLength={6}
                required
                ref={focusOnMount}
              />
            </FormField>
          )}
          <div className="d-flex flex-wrap align-items-center gap-3">
            <Button type="submit" variant="primary" isLoading={secondFactor.isPending} testId="code-submit">
              {t('signIn.confirm')}
            </Button>
            {!stage.enroll && (
              <button
                type="button"
                className="btn btn-link p-0"
                onClick={() => {
                  setIsRecovery((value) => !value);
                  setError(null);
                }}
                data-testid="toggle-recovery"
              >
                {isRecovery ? t('signIn.useCode') : t('signIn.useRecovery')}
              </button>
            )}
          </div>
        </form>
      </>
    );
  } else {
    body = (
      <>
        <h1 className="h4 mb-3">{t('signIn.title')}</h1>
        {alert}
        <form onSubmit={submitPassword} noValidate data-testid="password-form">
          <FormField label={t('signIn.email')}>
            <input
              id={`${ids}-email`}
              name="email"
              type="email"
              className="form-control"
              autoComplete="username"
              required
              ref={focusOnMount}
            />
          </FormField>
          <FormField label={t('signIn.password')}>
            <input
              id={`${ids}-password`}
              name="password"
              type="password"
              className="form-control"
              autoComplete="current-password"
              required
            />
          </FormField>
          <Button type="submit" variant="primary" isBlock isLoading={password.isPending} testId="sign-in-submit">
            {t('signIn.submit')}
          </Button>
        </form>
      </>
    );
  }

  return (
    <main className="console-sign-in">
      <div className="console-sign-in-box card card-elevated">
        <div className="card-body p-4">
          <p className="console-brand mb-3">{t('brand')}</p>
          {body}
        </div>
      </div>
    </main>
  );
}
