import type { AuditEntry } from '@amora/contracts';
import { type FormEvent, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { type AuditFilters, useAuditLog, useStaffList } from '../api/console';
import { consoleErrorText } from '../console-error';
import { formatConsoleTime } from '../shell/format';
import { useConsoleTitle } from '../shell/use-console-title';

/** The filters and page of the address (?page=2&object_type=user…): a view of the log can be linked and reloaded. */
function filtersOf(params: URLSearchParams): AuditFilters {
  const page = Number(params.get('page'));
  const staffId = Number(params.get('staff_id'));
  return {
    page: Number.isInteger(page) && page > 1 ? page : 1,
    object_type: params.get('object_type') || undefined,
    object_id: params.get('object_id') || undefined,
    staff_id: Number.isInteger(staffId) && staffId > 0 ? staffId : undefined,
  };
}

function paramsOf(filters: AuditFilters): Record<string, string> {
  const params: Record<string, string> = {};
  if (filters.page > 1) params.page = String(filters.page);
  if (filters.object_type) params.object_type = filters.object_type;
  if (filters.object_id) params.object_id = filters.object_id;
  if (filters.staff_id) params.staff_id = String(filters.staff_id);
  return params;
}

/** What changed: the values before and after, as they were written. */
function Change({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation('console');
  if (entry.before == null && entry.after == null) return null;
  return (
    <details className="console-details">
      <summary className="small">{t('audit.details')}</summary>
      {entry.before != null && (
        <>
          <div className="small fw-semibold mt-1">{t('audit.before')}</div>
          <pre>{JSON.stringify(entry.before, null, 2)}</pre>
        </>
      )}
      {entry.after != null && (
        <>
          <div className="small fw-semibold mt-1">{t('audit.after')}</div>
          <pre>{JSON.stringify(entry.after, null, 2)}</pre>
        </>
      )}
    </details>
  );
}

/** The audit log (admins): every console action, newest first, by page, filtered by object and staff member. */
export function AuditPage() {
  const { t, i18n } = useTranslation('console');
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params);
  const log = useAuditLog(filters);
  const staff = useStaffList();
  const ids = useId();
  useConsoleTitle(t('audit.title'));

  const go = (next: AuditFilters) => setParams(paramsOf(next));
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const staffId = Number(data.get('staff_id'));
    go({
      page: 1,
      object_type: String(data.get('object_type') ?? '').trim() || undefined,
      object_id: String(data.get('object_id') ?? '').trim() || undefined,
      staff_id: staffId > 0 ? staffId : undefined,
    });
  };
  const filtered = Boolean(filters.object_type || filters.object_id || filters.staff_id);

  return (
    <>
      <h1 className="h3 mb-3">{t('audit.title')}</h1>
      <form className="card card-body mb-3" onSubmit={submit} role="search" aria-label={t('audit.filters')} data-testid="audit-filters">
        {/* Keyed by the address's filters: the fields show them again after back and forward. */}
        <div className="row g-3 align-items-end" key={`${filters.object_type}|${filters.object_id}|${filters.staff_id}`}>
          <div className="col-md-3">
            <label className="form-label" htmlFor={`${ids}-type`}>
              {t('audit.objectType')}
            </label>
            <input id={`${ids}-type`} name="object_type" className="form-control" maxLength={40} defaultValue={filters.object_type} />
          </div>
          <div className="col-md-3">
            <label className="form-label" htmlFor={`${ids}-id`}>
              {t('audit.objectId')}
            </label>
            <input id={`${ids}-id`} name="object_id" className="form-control" maxLength={40} defaultValue={filters.object_id} />
          </div>
          <div className="col-md-3">
            <label className="form-label" htmlFor={`${ids}-staff`}>
              {t('audit.staff')}
            </label>
            <select id={`${ids}-staff`} name="staff_id" className="form-select" defaultValue={filters.staff_id ?? ''}>
              <option value="">{t('audit.anyone')}</option>
              {staff.data?.staff.map((one) => (
                <option key={one.id} value={one.id}>
                  {one.name}
                </option>
              ))}
            </select>
          </div>
          <div className="col-md-3 d-flex gap-2">
            <Button type="submit" variant="primary" testId="audit-filter">
              {t('audit.filter')}
            </Button>
            {filtered && (
              <Button variant="outline-secondary" onClick={() => go({ page: 1 })} testId="audit-clear">
                {t('audit.clear')}
              </Button>
            )}
          </div>
        </div>
      </form>

      {log.isPending && <div className="spinner-border" role="status" aria-label={t('loading')} />}
      {log.isError && (
        <div className="alert alert-danger" role="alert">
          {consoleErrorText(t, log.error)}
        </div>
      )}
      {log.data && log.data.entries.length === 0 && (
        <p className="text-body-secondary" data-testid="audit-empty">
          {t('audit.empty')}
        </p>
      )}
      {log.data && log.data.entries.length > 0 && (
        <>
          <div className="table-responsive">
            <table className="table console-table align-middle" data-testid="audit-table" aria-busy={log.isFetching || undefined}>
              <caption className="visually-hidden">{t('audit.title')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('audit.when')}</th>
                  <th scope="col">{t('audit.staff')}</th>
                  <th scope="col">{t('audit.action')}</th>
                  <th scope="col">{t('audit.object')}</th>
                  <th scope="col">{t('audit.ip')}</th>
                  <th scope="col">{t('audit.change')}</th>
                </tr>
              </thead>
              <tbody>
                {log.data.entries.map((entry) => (
                  <tr key={entry.id} data-testid={`audit-${entry.id}`}>
                    <td className="small text-nowrap">{formatConsoleTime(entry.created_at, i18n.language)}</td>
                    <td className="small">{entry.staff ? entry.staff.name : t('audit.system')}</td>
                    <td>
                      <code>{entry.action}</code>
                    </td>
                    <td className="small">
                      <button
                        type="button"
                        className="btn btn-link btn-sm p-0 text-start"
                        onClick={() => go({ page: 1, object_type: entry.object_type, object_id: entry.object_id })}
                        title={t('audit.onlyThis')}
                      >
                        {entry.object_type} {entry.object_id}
                      </button>
                    </td>
                    <td className="small">{entry.ip}</td>
                    <td>
                      <Change entry={entry} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav className="console-pager" aria-label={t('audit.pages')}>
            <Button
              variant="outline-dark"
              size="sm"
              disabled={filters.page <= 1}
              onClick={() => go({ ...filters, page: filters.page - 1 })}
              testId="audit-previous"
            >
              {t('audit.previous')}
            </Button>
            <span data-testid="audit-page">{t('audit.page', { page: log.data.page, pages: Math.max(1, log.data.pages) })}</span>
            <Button
              variant="outline-dark"
              size="sm"
              disabled={log.data.page >= log.data.pages}
              onClick={() => go({ ...filters, page: filters.page + 1 })}
              testId="audit-next"
            >
              {t('audit.next')}
            </Button>
            <span className="text-body-secondary small ms-auto">{t('audit.total', { count: log.data.total })}</span>
          </nav>
        </>
      )}
    </>
  );
}

export { AuditPage as Component };
