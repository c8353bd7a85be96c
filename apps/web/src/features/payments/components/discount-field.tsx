import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { usePercent } from './money';

/** The checkout's discount code: the code applied with Remove, else the field that checks a typed code. */
export function DiscountField({
  applied,
  standing,
  onApply,
  onRemove,
}: {
  applied: { code: string; percent: number } | null;
  /** The active discount while no code is shown applied: the server prices it in all the same. */
  standing: string | null;
  onApply: (code: string) => Promise<string | null>;
  onRemove: () => void;
}) {
  const { t } = useTranslation('payments');
  const percent = usePercent();
  const id = useId();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isChecking, setIsChecking] = useState(false);
  if (applied) {
    return (
      <div className="pay-code-applied" data-testid="code-applied">
        <span>{t('checkout.codeApplied', { code: applied.code, percent: percent(applied.percent) })}</span>
        <Button variant="link" size="sm" onClick={onRemove}>
          {t('checkout.removeCode')}
        </Button>
      </div>
    );
  }
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const value = code.trim();
    if (!value) return;
    setIsChecking(true);
    const refusal = await onApply(value);
    setIsChecking(false);
    setError(refusal);
  };
  return (
    <form onSubmit={(e) => void submit(e)} noValidate data-testid="discount-form">
      <label htmlFor={id} className="form-label">
        {t('checkout.code')}
      </label>
      <div className="d-flex gap-2">
        <input
          id={id}
          className={`form-control${error ? ' is-invalid' : ''}`}
          value={code}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={40}
          aria-describedby={`${id}-note`}
          aria-invalid={error ? true : undefined}
          onChange={(event) => {
            setCode(event.target.value);
            setError(null);
          }}
        />
        <Button type="submit" variant="outline-primary" isLoading={isChecking} disabled={!code.trim()}>
          {t('checkout.apply')}
        </Button>
      </div>
      <div id={`${id}-note`} className={error ? 'invalid-feedback d-block' : 'form-text'} role={error ? 'alert' : undefined}>
        {error ?? (standing ? t('checkout.activeStays', { code: standing }) : t('checkout.codeHelp'))}
      </div>
    </form>
  );
}
