import { LOCALE_INFO, LOCALES, STAFF_ROLES, type Staff, type StaffRole } from '@amora/contracts';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { useConfirm } from '@/components/ui/confirm';
import { FormField } from '@/components/ui/form-field';
import { useAddStaff, useChangeStaff, useMe, useStaffList } from '../api/console';
import { consoleErrorText } from '../console-error';
import { formatConsoleTime } from '../shell/format';
import { useConsoleTitle } from '../shell/use-console-title';

/** Add a staff member: their first password is shown here once, to be handed over in person. */
function AddStaff() {
  const { t, i18n } = useTranslation('console');
  const add = useAddStaff();
  const ids = useId();
  const [password, setPassword] = useState<{ name: string; email: string; password: string } | null>(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    add.mutate(
      {
        email: String(data.get('email') ?? ''),
        name: String(data.get('name') ?? ''),
        role: String(data.get('role')) as StaffRole,
        language: String(data.get('language')) as (typeof LOCALES)[number],
      },
      {
        onSuccess: (created) => {
          form.reset();
          setPassword({ name: created.staff.name, email: created.staff.email, password: created.password });
        },
      },
    );
  };

  if (password) {
    return (
      <div className="alert alert-success" role="status" data-testid="staff-password">
        <h2 className="h6 alert-heading">{t('staff.created', { name: password.name })}</h2>
        <p className="mb-2">{t('staff.passwordOnce', { email: password.email })}</p>
        <p className="mb-3">
          <code className="fs-5" data-testid="staff-password-value">
            {password.password}
          </code>
        </p>
        <Button variant="outline-dark" size="sm" onClick={() => setPassword(null)} testId="staff-password-done">
          {t('staff.passwordDone')}
        </Button>
      </div>
    );
  }

  return (
    <form className="card card-body mb-4" onSubmit={submit} noValidate data-testid="staff-add" aria-labelledby={`${ids}-title`}>
      <h2 className="h6" id={`${ids}-title`}>
        {t('staff.add')}
      </h2>
      {add.isError && (
        <div className="alert alert-danger py-2" role="alert">
          {consoleErrorText(t, add.error)}
        </div>
      )}
      <div className="row g-3 align-items-end">
        <div className="col-lg-3 col-md-6">
          <FormField label={t('staff.name')} className="">
            <input id={`${ids}-name`} name="name" className="form-control" maxLength={80} required />
          </FormField>
        </div>
        <div className="col-lg-3 col-md-6">
          <FormField label={t('staff.email')} className="">
            <input id={`${ids}-email`} name="email" type="email" className="form-control" required />
          </FormField>
        </div>
        <div className="col-lg-2 col-md-4">
          <FormField label={t('staff.role')} className="">
            <select id={`${ids}-role`} name="role" className="form-select" defaultValue="support">
              {STAFF_ROLES.map((role) => (
                <option key={role} value={role}>
                  {t(`roles.${role}`)}
                </option>
              ))}
            </select>
          </FormField>
        </div>
        <div className="col-lg-2 col-md-4">
          <FormField label={t('staff.language')} className="">
            <select id={`${ids}-language`} name="language" className="form-select" defaultValue={i18n.language}>
              {LOCALES.map((locale) => (
                <option key={locale} value={locale}>
                  {LOCALE_INFO[locale].name}
                </option>
              ))}
            </select>
          </FormField>
        </div>
        <div className="col-lg-2 col-md-4">
          <Button type="submit" variant="primary" isBlock isLoading={add.isPending} testId="staff-add-submit">
            {t('staff.addSubmit')}
          </Button>
        </div>
      </div>
    </form>
  );
}

/** One staff member's row: role, language and active changed in place, the authenticator reset after a question. */
function StaffRow({ staff, isSelf }: { staff: Staff; isSelf: boolean }) {
  const { t, i18n } = useTranslation('console');
  const change = useChangeStaff();
  const confirm = useConfirm();
  const [error, setError] = useState<string | null>(null);
  const save = (values: Parameters<typeof change.mutate>[0]['change'], done?: () => void) => {
    setError(null);
    change.mutate({ id: staff.id, change: values }, { onError: (failure) => setError(consoleErrorText(t, failure)), onSuccess: done });
  };
  const [resetDone, setResetDone] = useState(false);
  const reset = async () => {
    const isSure = await confirm({
      title: t('staff.resetTitle', { name: staff.name }),
      message: t('staff.resetText'),
      confirmLabel: t('staff.reset'),
      isDanger: true,
    });
    if (isSure) save({ reset_second_factor: true }, () => setResetDone(true));
  };
  const label = (what: string) => `${what}: ${staff.name}`;
  return (
    <tr data-testid={`staff-${staff.id}`} className={staff.is_active ? undefined : 'text-body-secondary'}>
      <td>
        <div className="fw-semibold">
          {staff.name}
          {isSelf && <span className="badge text-bg-secondary ms-2">{t('staff.you')}</span>}
        </div>
        <div className="small text-body-secondary text-break">{staff.email}</div>
        <div className="small text-body-secondary" data-testid={`staff-last-${staff.id}`}>
          {t('staff.lastLogin')}: {staff.last_login_at ? formatConsoleTime(staff.last_login_at, i18n.language) : t('staff.never')}
        </div>
        {error && (
          <div className="small text-danger" role="alert">
            {error}
          </div>
        )}
        {resetDone && (
          <div className="small text-success" role="status">
            {t('staff.resetDone')}
          </div>
        )}
      </td>
      <td>
        <select
          className="form-select form-select-sm console-select"
          aria-label={label(t('staff.role'))}
          value={staff.role}
          disabled={change.isPending}
          onChange={(event) => save({ role: event.target.value as StaffRole })}
        >
          {STAFF_ROLES.map((role) => (
            <option key={role} value={role}>
              {t(`roles.${role}`)}
            </option>
          ))}
        </select>
      </td>
      <td>
        <select
          className="form-select form-select-sm console-select"
          aria-label={label(t('staff.language'))}
          value={staff.language}
          disabled={change.isPending}
          onChange={(event) => save({ language: event.target.value as (typeof LOCALES)[number] })}
        >
          {LOCALES.map((locale) => (
            <option key={locale} value={locale}>
              {LOCALE_INFO[locale].name}
            </option>
          ))}
        </select>
      </td>
      <td>
        <div className="form-check form-switch mb-0">
          <input
            className="form-check-input"
            type="checkbox"
            role="switch"
            aria-label={label(t('staff.active'))}
            checked={staff.is_active}
            aria-checked={staff.is_active}
            disabled={change.isPending || isSelf}
            onChange={(event) => save({ is_active: event.target.checked })}
            data-testid={`staff-active-${staff.id}`}
          />
        </div>
      </td>
      <td className="text-end text-nowrap">
        <Button
          variant="outline-danger"
          size="sm"
          onClick={() => void reset()}
          disabled={change.isPending}
          testId={`staff-reset-${staff.id}`}
        >
          {t('staff.reset')}
        </Button>
      </td>
    </tr>
  );
}

/** Staff (admins): everyone who may sign in to the console, and adding one. */
export function StaffPage() {
  const { t } = useTranslation('console');
  const me = useMe();
  const list = useStaffList();
  useConsoleTitle(t('staff.title'));
  return (
    <>
      <h1 className="h3 mb-3">{t('staff.title')}</h1>
      <AddStaff />
      {list.isPending && <div className="spinner-border" role="status" aria-label={t('loading')} />}
      {list.isError && (
        <div className="alert alert-danger" role="alert">
          {consoleErrorText(t, list.error)}
        </div>
      )}
      {list.data && (
        <div className="table-responsive">
          <table className="table console-table align-middle" data-testid="staff-table">
            <caption className="visually-hidden">{t('staff.title')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('staff.name')}</th>
                <th scope="col">{t('staff.role')}</th>
                <th scope="col">{t('staff.language')}</th>
                <th scope="col">{t('staff.active')}</th>
                <th scope="col" className="text-end">
                  <span className="visually-hidden">{t('staff.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.staff.map((staff) => (
                <StaffRow key={staff.id} staff={staff} isSelf={staff.id === me.id} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

export { StaffPage as Component };
