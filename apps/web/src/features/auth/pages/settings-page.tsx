import {
  DELETE_REASONS,
  type DeleteAccountInput,
  deleteAccountSchema,
  type MailChangeRequestInput,
  mailChangeRequestSchema,
  REACTIVATION_DAYS,
} from '@amora/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Dialog } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { useToast } from '@/components/ui/toast';
import { ApiRequestError } from '@/lib/api-client';
import { errorField, errorText } from '@/lib/error-text';
import { userQueryKey, useUser } from '@/shared/session/user';
import { useSettings } from '@/shared/site/api/get-settings';
import { LocalLink } from '@/shared/site/local-link';
import { useLocalePath } from '@/shared/site/use-locale';
import { usePageTitle } from '@/shared/site/use-page-title';
import { deleteAccount, offerDeleteDiscount, requestMailChange } from '../api/account';
import { postReadReceipts } from '../api/read-receipts';

function EmailSection({ email, isConfirmed }: { email: string; isConfirmed: boolean }) {
  const { t } = useTranslation();
  const toast = useToast();
  const change = useMutation({ mutationFn: requestMailChange });
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<MailChangeRequestInput>({ resolver: zodResolver(mailChangeRequestSchema) });
  const serverField = errorField(change.error);
  const fieldError = (name: 'new_email' | 'password') =>
    errors[name]?.message ? t(errors[name]?.message as string) : serverField === name ? errorText(t, change.error) : null;
  return (
    <Card title={t('settings.email.title')} className="mb-4" testId="settings-email">
      <p>
        {t('settings.email.current')}: <strong data-testid="current-email">{email}</strong>
      </p>
      {!isConfirmed ? (
        // Only a confirmed address may be moved (the server refuses the rest): said before the form, not after it.
        <p className="alert alert-info mb-0" data-testid="mail-change-unconfirmed">
          {t('auth.errors.mailChangeUnconfirmed')}
        </p>
      ) : change.isSuccess ? (
        <div className="alert alert-success mb-0" role="status" data-testid="mail-change-requested">
          {t('settings.email.sent', { email: change.variables?.new_email ?? '' })}
        </div>
      ) : (
        <form
          noValidate
          onSubmit={handleSubmit((values) =>
            change.mutate(values, {
              onSuccess: () => {
                reset();
                toast.show(t('settings.email.sent', { email: values.new_email }));
              },
            }),
          )}
          data-testid="mail-change-form"
        >
          {change.error && !serverField && (
            <div className="alert alert-danger" role="alert">
              {errorText(t, change.error)}
            </div>
          )}
          <div className="row g-3">
            <FormField className="col-md-6" label={t('settings.email.new')} error={fieldError('new_email')}>
              <input id="new-email" type="email" autoComplete="email" className="form-control" {...register('new_email')} />
            </FormField>
            <FormField className="col-md-6" label={t('settings.currentPassword')} error={fieldError('password')}>
              <input
                id="mail-change-password"
                type="password"
                autoComplete="current-password"
                className="form-control"
                {...register('password')}
              />
            </FormField>
          </div>
          <Button type="submit" className="mt-3" isLoading={change.isPending} testId="mail-change-submit">
            {t('settings.email.submit')}
          </Button>
        </form>
      )}
    </Card>
  );
}

/**
 * Read receipts (on unless turned off): when on, the other member sees "Seen" under what I have read, and I see it
 * under what they have read if theirs are on too; off, neither side sees it.
 */
function ReadReceiptsSection({ isOff }: { isOff: boolean }) {
  const { t } = useTranslation();
  const toast = useToast();
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: postReadReceipts,
    onSuccess: (answer) => {
      queryClient.setQueryData(userQueryKey, (user: unknown) => {
        if (!user || typeof user !== 'object' || !('read_receipts' in user)) return user;
        return { ...user, read_receipts: answer.enabled };
      });
      toast.show({ message: t(answer.enabled ? 'chatSafety.receipts.on' : 'chatSafety.receipts.off'), variant: 'success' });
    },
    onError: (error) => toast.show({ message: errorText(t, error), variant: 'danger' }),
  });
  const isOn = change.isPending ? change.variables : !isOff;
  return (
    <Card title={t('chatSafety.receipts.title')} className="mb-4" testId="settings-read-receipts">
      <div className="form-check form-switch">
        <input
          className="form-check-input"
          type="checkbox"
          role="switch"
          id="read-receipts"
          checked={isOn}
          aria-checked={isOn}
          disabled={change.isPending}
          onChange={(event) => change.mutate(event.target.checked)}
          aria-describedby="read-receipts-help"
        />
        <label className="form-check-label" htmlFor="read-receipts">
          {t('chatSafety.receipts.label')}
        </label>
      </div>
      <p id="read-receipts-help" className="form-text mb-0">
        {t('chatSafety.receipts.help')}
      </p>
    </Card>
  );
}

/** The delete-account item (settings, and the notifications page of spec §2). */
export function DeleteAccountSection() {
  const { t } = useTranslation();
  const settings = useSettings();
  const [step, setStep] = useState<'closed' | 'offer' | 'confirm' | 'kept'>('closed');
  // The discount is offered once the member has filled in the form with their password (a deletion under way).
  const [pending, setPending] = useState<DeleteAccountInput | null>(null);
  const offer = useMutation({ mutationFn: offerDeleteDiscount });
  const remove = useMutation({ mutationFn: deleteAccount });
  const navigate = useNavigate();
  const localize = useLocalePath();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<DeleteAccountInput>({ resolver: zodResolver(deleteAccountSchema), defaultValues: { reason: 'other' } });
  // A field's error shows under it, whether the form's own check or the server found it; any other above the form.
  // The offer's answer counts too (a wrong password), except its 404: no discount to offer, the deletion goes on.
  const offerError = offer.error instanceof ApiRequestError && offer.error.status === 404 ? null : offer.error;
  const serverError = remove.error ?? offerError;
  const serverField = errorField(serverError);
  const fieldError = (name: 'reason' | 'reason_text' | 'password') =>
    errors[name]?.message ? t(errors[name]?.message as string) : serverField === name ? errorText(t, serverError) : null;
  const isFieldError = serverField === 'reason' || serverField === 'reason_text' || serverField === 'password';

  const handleOpen = () => {
    setPending(null);
    offer.reset();
    remove.reset();
    setStep('confirm');
  };
  const deleteNow = (values: DeleteAccountInput) =>
    remove.mutate(values, {
      // The deleted page forgets the member; clearing it here first would bounce this page to the login.
      onSuccess: () => navigate(localize('/account-deleted')),
    });
  const handleDelete = (values: DeleteAccountInput) => {
    if (settings.delete_discount <= 0 || pending) {
      deleteNow(values);
      return;
    }
    // Before deleting, the site's discount once per member: offered with the password just typed.
    offer.mutate(values.password, {
      onSuccess: () => {
        setPending(values);
        setStep('offer');
      },
      onError: (error) => {
        if (error instanceof ApiRequestError && error.status === 404) deleteNow(values);
      },
    });
  };

  return (
    <Card title={t('settings.delete.title')} className="border-danger-subtle" testId="settings-delete">
      {step === 'kept' && offer.data ? (
        <div className="alert alert-success" role="status" data-testid="discount-kept">
          {t('settings.delete.kept', { code: offer.data.code, percent: offer.data.value_percentage })}
        </div>
      ) : (
        <p>{t('settings.delete.intro', { count: REACTIVATION_DAYS })}</p>
      )}
      <Button variant="outline-danger" onClick={handleOpen} testId="delete-account">
        {t('settings.delete.button')}
      </Button>
      <Dialog
        isOpen={step === 'offer' || step === 'confirm'}
        onClose={() => setStep('closed')}
        labelledBy="delete-dialog-title"
        testId="delete-dialog"
      >
        <div className="modal-header">
          <h2 className="modal-title h5" id="delete-dialog-title">
            {t('settings.delete.title')}
          </h2>
          <button type="button" className="btn-close" aria-label={t('common.close')} onClick={() => setStep('closed')} />
        </div>
        {step === 'offer' ? (
          <>
            <div className="modal-body" data-testid="delete-offer">
              <p className="fw-semibold">{t('settings.delete.offerTitle', { percent: settings.delete_discount })}</p>
              <p className="mb-0">{t('settings.delete.offerText', { site: settings.name })}</p>
            </div>
            <div className="modal-footer">
              <Button
                variant="outline-dark"
                onClick={() => pending && deleteNow(pending)}
                isLoading={remove.isPending}
                testId="delete-continue"
              >
                {t('settings.delete.continue')}
              </Button>
              <Button onClick={() => setStep('kept')} disabled={!offer.data} testId="delete-keep">
                {t('settings.delete.keep', { percent: settings.delete_discount })}
              </Button>
            </div>
          </>
        ) : (
          <form noValidate onSubmit={handleSubmit(handleDelete)}>
            <div className="modal-body">
              {serverError && !isFieldError && (
                <div className="alert alert-danger" role="alert">
                  {errorText(t, serverError)}
                </div>
              )}
              <FormField label={t('settings.delete.reason')} error={fieldError('reason')}>
                <select id="delete-reason" className="form-select" {...register('reason')}>
                  {DELETE_REASONS.map((r) => (
                    <option key={r} value={r}>
                      {t(`settings.delete.reasons.${r}`)}
                    </option>
                  ))}
                </select>
              </FormField>
              <FormField label={t('settings.delete.reasonText')} error={fieldError('reason_text')}>
                <textarea id="delete-reason-text" rows={2} className="form-control" {...register('reason_text')} />
              </FormField>
              <FormField className="" label={t('settings.currentPassword')} error={fieldError('password')}>
                <input
                  id="delete-password"
                  type="password"
                  autoComplete="current-password"
                  className="form-control"
                  {...register('password')}
                />
              </FormField>
            </div>
            <div className="modal-footer">
              <Button variant="outline-dark" onClick={() => setStep('closed')}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" variant="danger" isLoading={remove.isPending || offer.isPending} testId="delete-confirm">
                {t('settings.delete.confirm')}
              </Button>
            </div>
          </form>
        )}
      </Dialog>
    </Card>
  );
}

/** Where the member chooses what they hear about (the notifications page). */
function NotificationsLink() {
  const { t } = useTranslation();
  return (
    <Card title={t('notifications.title')} className="mb-4" testId="settings-notifications">
      <p className="mb-2">{t('notifications.settingsText')}</p>
      <LocalLink to="/notifications" className="btn btn-outline-dark btn-sm" data-testid="settings-notifications-link">
        {t('notifications.settingsLink')}
      </LocalLink>
    </Card>
  );
}

/**
 * /settings: account settings; location and main image join with profiles. `blockedMembers` is the list of members
 * I blocked, from features/profiles, and `dataExport` the copy of my data, from features/data-export
 * (app/pages/settings-page puts them in).
 */
export function SettingsPage({ blockedMembers, dataExport }: { blockedMembers?: ReactNode; dataExport?: ReactNode } = {}) {
  const { t } = useTranslation();
  usePageTitle(t('account.settings'));
  const user = useUser();
  const localize = useLocalePath();
  if (!user) return <Navigate to={`${localize('/login')}?redirect=${encodeURIComponent(localize('/settings'))}`} replace />;
  return (
    <main id="main" className="container py-4 py-md-5" style={{ maxWidth: 760 }}>
      <h1 className="h3 mb-4">{t('account.settings')}</h1>
      <EmailSection email={user.email} isConfirmed={user.status === 'confirmed'} />
      <ReadReceiptsSection isOff={!user.read_receipts} />
      {blockedMembers}
      <NotificationsLink />
      {dataExport}
      <DeleteAccountSection />
    </main>
  );
}
