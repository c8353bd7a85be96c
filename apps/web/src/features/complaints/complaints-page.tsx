import { COMPLAINT_CATEGORIES, type ComplaintInput, complaintSchema } from '@amora/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { FormPage } from '@/components/ui/form-page';
import { ApiRequestError } from '@/lib/api-client';
import { useSettings } from '@/shared/site/api/get-settings';
import { usePageTitle } from '@/shared/site/use-page-title';
import { useCreateComplaint } from './api/create-complaint';

/** The complaints page: a form that reaches the operator, with a reference to quote. */
export function ComplaintsPage() {
  const { t } = useTranslation();
  const settings = useSettings();
  usePageTitle(t('complaints.title'));
  const mutation = useCreateComplaint();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ComplaintInput>({ resolver: zodResolver(complaintSchema), defaultValues: { category: 'other', url: '' } });

  const handleValid = (values: ComplaintInput) =>
    mutation.mutate(values, {
      onError: (error) => {
        if (error instanceof ApiRequestError && error.field && error.field in values) {
          setError(error.field as keyof ComplaintInput, { message: `complaints.errors.${error.field}` });
        }
      },
    });

  const fieldError = (name: keyof ComplaintInput) => (errors[name]?.message ? t(errors[name]?.message as string) : null);

  if (mutation.isSuccess) {
    return (
      <FormPage title={t('complaints.title')} mark="success" isWide>
        <div className="alert alert-success mb-0" data-testid="complaint-success">
          <h2 className="alert-heading h5">{t('complaints.thanks')}</h2>
          <p className="mb-0">{t('complaints.reference', { reference: mutation.data.reference, email: settings.support_email })}</p>
        </div>
      </FormPage>
    );
  }

  const serverError =
    mutation.error instanceof ApiRequestError && mutation.error.status === 429
      ? t('complaints.errors.tooMany')
      : mutation.error
        ? t('errors.generic')
        : null;

  return (
    <main id="main" className="auth-page">
      <div className="container" style={{ maxWidth: 760 }}>
        <h1 className="section-title h2">{t('complaints.title')}</h1>
        <p className="page-intro mb-4">{t('complaints.intro', { site: settings.name, company: settings.company_name })}</p>
        <div className="card complaint-card">
          <div className="card-body p-3 p-sm-4">
            {serverError && (
              <div className="alert alert-danger" role="alert">
                {serverError}
              </div>
            )}
            <form noValidate onSubmit={handleSubmit(handleValid)} data-testid="complaint-form">
              <div className="row g-3">
                <FormField className="col-md-6" label={t('complaints.name')} error={fieldError('name')} isRequired>
                  <input id="complaint-name" className="form-control" autoComplete="name" {...register('name')} />
                </FormField>
                <FormField className="col-md-6" label={t('complaints.email')} error={fieldError('email')} isRequired>
                  <input id="complaint-email" type="email" className="form-control" autoComplete="email" {...register('email')} />
                </FormField>
                <FormField className="col-md-6" label={t('complaints.category')} error={fieldError('category')}>
                  <select id="complaint-category" className="form-select" {...register('category')}>
                    {COMPLAINT_CATEGORIES.map((c) => (
                      <option key={c} value={c}>
                        {t(`complaints.categories.${c}`)}
                      </option>
                    ))}
                  </select>
                </FormField>
                <FormField className="col-md-6" label={t('complaints.url')} help={t('complaints.urlHelp')} error={fieldError('url')}>
                  <input id="complaint-url" className="form-control" {...register('url')} />
                </FormField>
                <FormField className="col-12" label={t('complaints.subject')} error={fieldError('subject')} isRequired>
                  <input id="complaint-subject" className="form-control" {...register('subject')} />
                </FormField>
                <FormField className="col-12" label={t('complaints.message')} error={fieldError('message')} isRequired>
                  <textarea id="complaint-message" rows={6} className="form-control" {...register('message')} />
                </FormField>
              </div>
              <Button type="submit" size="lg" className="mt-4 px-5" isLoading={mutation.isPending} testId="complaint-submit">
                {t('complaints.submit')}
              </Button>
            </form>
          </div>
        </div>
      </div>
    </main>
  );
}

export { ComplaintsPage as Component };
