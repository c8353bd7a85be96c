import { COMPLAINT_CATEGORIES, type ComplaintInput, complaintSchema } from '@amora/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
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

  const fieldError = (name: keyof ComplaintInput) =>
    errors[name]?.message ? <Form.Control.Feedback type="invalid">{t(errors[name]?.message as string)}</Form.Control.Feedback> : null;

  if (mutation.isSuccess) {
    return (
      <main id="main" className="container py-5" style={{ maxWidth: 720 }}>
        <h1>{t('complaints.title')}</h1>
        <Alert variant="success" data-testid="complaint-success">
          <Alert.Heading as="h2" className="h5">
            {t('complaints.thanks')}
          </Alert.Heading>
          <p className="mb-0">{t('complaints.reference', { reference: mutation.data.reference, email: settings.support_email })}</p>
        </Alert>
      </main>
    );
  }

  const serverError =
    mutation.error instanceof ApiRequestError && mutation.error.status === 429
      ? t('complaints.errors.tooMany')
      : mutation.error
        ? t('errors.generic')
        : null;

  return (
    <main id="main" className="container py-5" style={{ maxWidth: 720 }}>
      <h1>{t('complaints.title')}</h1>
      <p className="lead">{t('complaints.intro', { site: settings.name, company: settings.company_name })}</p>
      {serverError && (
        <Alert variant="danger" role="alert">
          {serverError}
        </Alert>
      )}
      <Form noValidate onSubmit={handleSubmit(handleValid)} data-testid="complaint-form">
        <div className="row g-3">
          <Form.Group className="col-md-6" controlId="complaint-name">
            <Form.Label>{t('complaints.name')}</Form.Label>
            <Form.Control autoComplete="name" isInvalid={!!errors.name} {...register('name')} />
            {fieldError('name')}
          </Form.Group>
          <Form.Group className="col-md-6" controlId="complaint-email">
            <Form.Label>{t('complaints.email')}</Form.Label>
            <Form.Control type="email" autoComplete="email" isInvalid={!!errors.email} {...register('email')} />
            {fieldError('email')}
          </Form.Group>
          <Form.Group className="col-md-6" controlId="complaint-category">
            <Form.Label>{t('complaints.category')}</Form.Label>
            <Form.Select isInvalid={!!errors.category} {...register('category')}>
              {COMPLAINT_CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {t(`complaints.categories.${c}`)}
                </option>
              ))}
            </Form.Select>
            {fieldError('category')}
          </Form.Group>
          <Form.Group className="col-md-6" controlId="complaint-url">
            <Form.Label>{t('complaints.url')}</Form.Label>
            <Form.Control isInvalid={!!errors.url} {...register('url')} />
            <Form.Text>{t('complaints.urlHelp')}</Form.Text>
          </Form.Group>
          <Form.Group className="col-12" controlId="complaint-subject">
            <Form.Label>{t('complaints.subject')}</Form.Label>
            <Form.Control isInvalid={!!errors.subject} {...register('subject')} />
            {fieldError('subject')}
          </Form.Group>
          <Form.Group className="col-12" controlId="complaint-message">
            <Form.Label>{t('complaints.message')}</Form.Label>
            <Form.Control as="textarea" rows={6} isInvalid={!!errors.message} {...register('message')} />
            {fieldError('message')}
          </Form.Group>
        </div>
        <Button type="submit" className="mt-4" disabled={mutation.isPending} data-testid="complaint-submit">
          {mutation.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
          {t('complaints.submit')}
        </Button>
      </Form>
    </main>
  );
}

export { ComplaintsPage as Component };
