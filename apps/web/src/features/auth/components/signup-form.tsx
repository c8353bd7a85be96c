import { INVALID_CHARACTERS, signupSchema } from '@amora/contracts';
import { MIN_AGE, type SignupInput } from '@amora/contracts/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { errorField, errorText } from '@/lib/error-text';
import { LocalLink } from '@/shared/site/local-link';
import { useLocale } from '@/shared/site/use-locale';
import { useSignup } from '../api/account';
import { SIGNUP_FLOW_COMPLETE, SIGNUP_STARTED } from './signup-events';

type FormValues = Omit<SignupInput, 'terms'> & { terms: boolean };

function maxBirthDate(): string {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() - MIN_AGE);
  return d.toISOString().slice(0, 10);
}

interface SignupFormProps {
  profileId?: number;
  withMessage?: boolean;
  /** The message field's label when it says whom the message goes to. */
  messageLabel?: string;
  /** What the message field starts with (the message begun on a member landing). */
  defaultMessage?: string;
  onDone: () => void;
}

/** Spec §5 signup: one zod schema for this form and the server. Emits signup-started / signup-flow-complete. */
export function SignupForm({ profileId, withMessage = false, messageLabel, defaultMessage = '', onDone }: SignupFormProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const signup = useSignup();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<FormValues>({
    resolver: zodResolver(signupSchema) as never,
    defaultValues: { terms: false, ...(withMessage && defaultMessage ? { signup_message: defaultMessage } : {}) },
  });

  const handleValid = (values: FormValues) => {
    window.dispatchEvent(new Event(SIGNUP_STARTED));
    signup.mutate(
      { ...values, terms: true, language: locale, profile_id: profileId, signup_message: values.signup_message || undefined },
      {
        onSuccess: () => onDone(),
        onError: (error) => {
          window.dispatchEvent(new Event(SIGNUP_FLOW_COMPLETE));
          const field = errorField(error);
          if (field && field in values) setError(field as keyof FormValues, { message: errorText(t, error) });
        },
      },
    );
  };

  const message = (name: keyof FormValues) => {
    const text = errors[name]?.message;
    if (!text) return null;
    return text.startsWith('auth.') || text === INVALID_CHARACTERS ? t(text, { minAge: MIN_AGE }) : text;
  };
  const serverError = signup.error && !errorField(signup.error) ? errorText(t, signup.error) : null;

  return (
    <form noValidate onSubmit={handleSubmit(handleValid)} data-testid="signup-form">
      {serverError && (
        <div className="alert alert-danger" role="alert">
          {serverError}
        </div>
      )}
      <FormField label={t('signup.name')} error={message('name')}>
        <input id="signup-name" className="form-control" autoComplete="nickname" {...register('name')} />
      </FormField>
      <FormField label={t('signup.email')} error={message('email')}>
        <input id="signup-email" type="email" className="form-control" autoComplete="email" {...register('email')} />
      </FormField>
      <FormField label={t('signup.password')} error={message('password')}>
        <input id="signup-password" type="password" className="form-control" autoComplete="new-password" {...register('password')} />
      </FormField>
      <FormField label={t('signup.dateOfBirth', { minAge: MIN_AGE })} error={message('date_of_birth')}>
        <input id="signup-dob" type="date" max={maxBirthDate()} min="1900-01-01" className="form-control" {...register('date_of_birth')} />
      </FormField>
      {withMessage && (
        <FormField label={messageLabel ?? t('signup.message')} error={message('signup_message')}>
          <textarea id="signup-message" rows={3} className="form-control" {...register('signup_message')} />
        </FormField>
      )}
      <FormField
        layout="check"
        error={message('terms')}
        label={
          <>
            {t('signup.acceptPrefix')}{' '}
            <LocalLink to="/pages/terms" target="_blank">
              {t('footer.terms')}
            </LocalLink>{' '}
            {t('signup.and')}{' '}
            <LocalLink to="/pages/privacy" target="_blank">
              {t('footer.privacy')}
            </LocalLink>
          </>
        }
      >
        <input id="signup-terms" type="checkbox" className="form-check-input" {...register('terms')} />
      </FormField>
      <Button type="submit" size="lg" isBlock className="mt-2" isLoading={signup.isPending} testId="signup-submit">
        {t('signup.submit')}
      </Button>
      <p className="auth-links mb-0">
        {t('signup.haveAccount')} <LocalLink to="/login">{t('nav.login')}</LocalLink>
      </p>
    </form>
  );
}
