import { DIRECT_DEBIT_CODE_LENGTH, type DirectDebitConfirmed, type DirectDebitVerification } from '@amora/contracts';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { useToast } from '@/components/ui/toast';
import { ApiRequestError } from '@/lib/api-client';
import { useConfirmCode, useResendCode } from '../api/directdebit';

/** Seconds until a new code may be asked for, counted down once a second. */
function useCountdown(seconds: number, restartKey: string): number {
  const [left, setLeft] = useState(seconds);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new code (a new restartKey) starts the wait again
  useEffect(() => {
    setLeft(seconds);
    const started = Date.now();
    const id = window.setInterval(() => {
      const rest = Math.max(0, seconds - Math.floor((Date.now() - started) / 1000));
      setLeft(rest);
      if (rest === 0) window.clearInterval(id);
    }, 1000);
    return () => window.clearInterval(id);
  }, [seconds, restartKey]);
  return left;
}

/**
 * Step 2: the code from the SMS (a one-time-code field, so phones offer it from the message), 'Invalid code' for a
 * wrong, expired or used one, and a new code once the wait is over.
 */
export function CodeStep({
  verification,
  onConfirmed,
  onChangeDetails,
  onBlocked,
}: {
  verification: DirectDebitVerification;
  onConfirmed: (result: DirectDebitConfirmed) => void;
  onChangeDetails: () => void;
  onBlocked: () => void;
}) {
  const { t } = useTranslation('payments');
  const toast = useToast();
  const [current, setCurrent] = useState(verification);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const confirm = useConfirmCode();
  const resend = useResendCode();
  const wait = useCountdown(current.resend_after_seconds, current.expires_at);
  const inputRef = useRef<HTMLInputElement>(null);
  const errorId = useId();

  useEffect(() => inputRef.current?.focus(), []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!new RegExp(`^\\d{${DIRECT_DEBIT_CODE_LENGTH}}$`).test(code)) {
      setError(t('directDebit.errors.invalidCode'));
      inputRef.current?.focus();
      return;
    }
    setError(null);
    confirm.mutate(
      { verification: current.verification, otp: code },
      {
        onSuccess: onConfirmed,
        onError: (failure) => {
          if (failure instanceof ApiRequestError && failure.code === 'direct_debit_blocked') return onBlocked();
          setError(
            failure instanceof ApiRequestError && (failure.code === 'invalid_code' || failure.status === 400 || failure.status === 404)
              ? t('directDebit.errors.invalidCode')
              : t('common:errors.generic'),
          );
          inputRef.current?.select();
        },
      },
    );
  };

  const askAgain = () =>
    resend.mutate(current.verification, {
      onSuccess: (next) => {
        setCurrent(next);
        setCode('');
        setError(null);
        toast.show({ message: t('directDebit.code.resent'), variant: 'success', testId: 'directdebit-resent' });
        inputRef.current?.focus();
      },
      onError: (failure) =>
        setError(
          failure instanceof ApiRequestError && failure.status === 429
            ? t('directDebit.errors.tooMany')
            : failure instanceof ApiRequestError && failure.code === 'invalid_code'
              ? t('directDebit.errors.startAgain')
              : t('common:errors.generic'),
        ),
    });

  return (
    <form noValidate onSubmit={submit} data-testid="directdebit-code">
      <p className="mb-3" data-testid="directdebit-code-sent">
        {t('directDebit.code.sent', { phone: current.phone_masked })}
      </p>
      <label className="form-label fw-semibold" htmlFor="dd-otp">
        {t('directDebit.code.label')}
      </label>
      <input
        ref={inputRef}
        id="dd-otp"
        name="otp"
        className={`form-control dd-otp${error ? ' is-invalid' : ''}`}
        autoComplete="one-time-code"
        inputMode="numeric"
        pattern="\d*"
        maxLength={DIRECT_DEBIT_CODE_LENGTH}
        value={code}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, DIRECT_DEBIT_CODE_LENGTH))}
      />
      {error && (
        <div id={errorId} className="invalid-feedback d-block" role="alert" data-testid="directdebit-code-error">
          {error}
        </div>
      )}
      <div className="d-flex flex-wrap align-items-center gap-2 mt-3">
        <Button type="submit" size="lg" className="px-5" isLoading={confirm.isPending} testId="directdebit-confirm">
          {t('directDebit.code.submit')}
        </Button>
        <Button variant="link" onClick={askAgain} disabled={wait > 0 || resend.isPending} aria-live="polite" testId="directdebit-resend">
          {wait > 0 ? t('directDebit.code.resendIn', { seconds: wait }) : t('directDebit.code.resend')}
        </Button>
      </div>
      <Button variant="link" className="px-0 mt-2" onClick={onChangeDetails} testId="directdebit-change">
        {t('directDebit.code.change')}
      </Button>
    </form>
  );
}
