import { type DirectDebitDetailsInput, type DirectDebitVerification, directDebitDetailsSchema } from '@amora/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { type ChangeEvent, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { ApiRequestError } from '@/lib/api-client';
import { useSendDetails } from '../api/directdebit';
import { useFieldErrorText } from './field-error';
import { formatIban, formatPhone, ibanState, isValidPhone } from './formatting';

type Values = Omit<DirectDebitDetailsInput, 'step'>;
const FIELDS = ['account_holder', 'iban', 'street', 'house_number', 'zip', 'city', 'phone'] as const;

/** Formats the field's text while the caret is at its end (formatting in the middle would move the caret). */
function formatAtEnd(event: ChangeEvent<HTMLInputElement>, format: (value: string) => string): string {
  const input = event.target;
  const atEnd = input.selectionStart === null || input.selectionStart === input.value.length;
  const isDeleting = (event.nativeEvent as InputEvent).inputType?.startsWith('delete');
  return atEnd && !isDeleting ? format(input.value) : input.value;
}

/**
 * Step 1: the account holder, the IBAN (grouped in fours and checked with ibantools while it is typed), the
 * address and the mobile number (formatted as the member's country writes it), then the code goes by SMS.
 */
export function DetailsForm({
  country,
  onSent,
  onLimit,
  onBlocked,
}: {
  country: string | null;
  onSent: (verification: DirectDebitVerification) => void;
  onLimit: () => void;
  onBlocked: () => void;
}) {
  const { t } = useTranslation('payments');
  const errorText = useFieldErrorText();
  const send = useSendDetails();
  const schema = useMemo(
    () =>
      directDebitDetailsSchema.omit({ step: true }).superRefine((values, issues) => {
        if (values.iban && ibanState(values.iban) !== 'valid') {
          issues.addIssue({ code: 'custom', path: ['iban'], message: 'directDebit.errors.iban' });
        }
        if (values.phone && !isValidPhone(values.phone, country)) {
          issues.addIssue({ code: 'custom', path: ['phone'], message: 'directDebit.errors.phone' });
        }
      }),
    [country],
  );
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    watch,
    formState: { errors },
  } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { account_holder: '', iban: '', street: '', house_number: '', zip: '', city: '', phone: '' },
  });
  const iban = ibanState(watch('iban') ?? '');

  const submit = (values: Values) =>
    send.mutate(
      { step: 'details', ...values },
      {
        onSuccess: onSent,
        onError: (error) => {
          if (!(error instanceof ApiRequestError)) return;
          if (error.code === 'direct_debit_limit') onLimit();
          if (error.code === 'direct_debit_blocked') onBlocked();
          const field = error.field as (typeof FIELDS)[number] | undefined;
          if (field && FIELDS.includes(field)) setError(field, { message: error.message });
        },
      },
    );

  const fieldError = (name: keyof Values) => errorText(errors[name]?.message);
  const serverError =
    send.error instanceof ApiRequestError && send.error.status === 429
      ? t('directDebit.errors.tooMany')
      : send.error &&
          !(send.error instanceof ApiRequestError && (send.error.field || send.error.status === 403 || send.error.status === 409))
        ? t('common:errors.generic')
        : null;

  const ibanField = register('iban');
  const phoneField = register('phone');

  return (
    <form noValidate onSubmit={handleSubmit(submit)} data-testid="directdebit-form">
      {serverError && (
        <div className="alert alert-danger" role="alert">
          {serverError}
        </div>
      )}
      <div className="row g-3">
        <FormField className="col-12" label={t('directDebit.form.accountHolder')} error={fieldError('account_holder')} isRequired>
          <input id="dd-holder" className="form-control" autoComplete="name" maxLength={70} {...register('account_holder')} />
        </FormField>
        <FormField
          className="col-12"
          label={t('directDebit.form.iban')}
          help={
            iban === 'valid' && !errors.iban ? (
              <span className="text-success dd-iban-ok">✓ {t('directDebit.form.ibanValid')}</span>
            ) : (
              t('directDebit.form.ibanHelp')
            )
          }
          error={fieldError('iban') ?? (iban === 'invalid' ? t('directDebit.errors.iban') : null)}
          isRequired
        >
          <input
            id="dd-iban"
            className="form-control dd-iban"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            inputMode="text"
            maxLength={42}
            placeholder="NL00 BANK 0123 4567 89"
            {...ibanField}
            onChange={(event) => {
              const value = formatAtEnd(event, formatIban);
              setValue('iban', value, { shouldValidate: Boolean(errors.iban) });
              if (value !== event.target.value) event.target.value = value;
            }}
          />
        </FormField>
        <h2 className="h6 col-12 mt-4 mb-0">{t('directDebit.form.addressTitle')}</h2>
        <FormField className="col-12 col-sm-8 col-md-9" label={t('directDebit.form.street')} error={fieldError('street')} isRequired>
          <input id="dd-street" className="form-control" autoComplete="address-line1" maxLength={100} {...register('street')} />
        </FormField>
        <FormField
          className="col-5 col-sm-4 col-md-3"
          label={t('directDebit.form.houseNumber')}
          error={fieldError('house_number')}
          isRequired
        >
          <input id="dd-house" className="form-control" maxLength={20} {...register('house_number')} />
        </FormField>
        <FormField className="col-7 col-sm-5 col-md-4" label={t('directDebit.form.zip')} error={fieldError('zip')} isRequired>
          <input id="dd-zip" className="form-control" autoComplete="postal-code" maxLength={16} {...register('zip')} />
        </FormField>
        <FormField className="col-12 col-sm-7 col-md-8" label={t('directDebit.form.city')} error={fieldError('city')} isRequired>
          <input id="dd-city" className="form-control" autoComplete="address-level2" maxLength={60} {...register('city')} />
        </FormField>
        <FormField
          className="col-12 mt-4"
          label={t('directDebit.form.phone')}
          help={t('directDebit.form.phoneHelp')}
          error={fieldError('phone')}
          isRequired
        >
          <input
            id="dd-phone"
            type="tel"
            className="form-control"
            autoComplete="tel"
            inputMode="tel"
            maxLength={32}
            {...phoneField}
            onChange={(event) => {
              const value = formatAtEnd(event, (v) => formatPhone(v, country));
              setValue('phone', value, { shouldValidate: Boolean(errors.phone) });
              if (value !== event.target.value) event.target.value = value;
            }}
          />
        </FormField>
      </div>
      <p className="small text-body-secondary mt-3 mb-0">{t('directDebit.form.privacy')}</p>
      <Button type="submit" size="lg" className="mt-3 px-5 dd-submit" isLoading={send.isPending} testId="directdebit-send">
        {t('directDebit.form.submit')}
      </Button>
    </form>
  );
}
