import { MODERATION_KINDS, type ModerationKind } from '@amora/contracts';
import { type FormEvent, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { consoleErrorText } from '../console-error';
import { FictionalBadge } from '../shell/fictional-badge';
import { formatConsoleTime } from '../shell/format';
import { moveBetweenRows } from '../shell/row-keys';
import { useConsoleTitle } from '../shell/use-console-title';
import { type QueueFilters, useModerationQueue } from './moderation-api';

const isKind = (value: string | null): value is ModerationKind => MODERATION_KINDS.includes(value as ModerationKind);

const positive = (value: string | null): number | undefined => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : undefined;
};

/** The filters and page of the address (?kind=photo&page=2…): a view of the queue can be linked and reloaded. */
function filtersOf(params: URLSearchParams): QueueFilters {
  const kind = params.get('kind');
  return {
    page: positive(params.get('page')) ?? 1,
    status: params.get('status') === 'handled' ? 'handled' : 'open',
    kind: isKind(kind) ? kind : undefined,
    site: positive(params.get('site')),
    older_than_hours: positive(params.get('older_than_hours')),
  };
}

function paramsOf(filters: QueueFilters): Record<string, string> {
  const params: Record<string, string> = {};
  if (filters.page > 1) params.page = String(filters.page);
  if (filters.status === 'handled') params.status = 'handled';
  if (filters.kind) params.kind = filters.kind;
  if (filters.site) params.site = String(filters.site);
  if (filters.older_than_hours) params.older_than_hours = String(filters.older_than_hours);
  return params;
}

/** The moderation queue: open (or handled) complaints, reports and photos, oldest first, filtered and by page. */
export function QueuePage() {
  const { t, i18n } = useTranslation('console');
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params);
  const queue = useModerationQueue(filters);
  const ids = useId();
  useConsoleTitle(t('moderation.title'));

  const go = (next: QueueFilters) => setParams(paramsOf(next));
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const kind = String(data.get('kind') ?? '');
    go({
      page: 1,
      status: data.get('status') === 'handled' ? 'handled' : 'open',
      kind: isKind(kind) ? kind : undefined,
      site: positive(String(data.get('site') ?? '')),
      older_than_hours: positive(String(data.get('older_than_hours') ?? '')),
    });
  };
  const pages = queue.data ? Math.max(1, Math.ceil(queue.data.total / queue.data.page_size)) : 1;

  return (
    <>
      <h1 className="h3 mb-3">{t('moderation.title')}</h1>
      <form
        className="card card-body mb-3"
        onSubmit={submit}
        role="search"
        aria-label={t('moderation.filters')}
        data-testid="queue-filters"
      >
        <div className="row g-3 align-items-end" key={JSON.stringify(filters)}>
          <div className="col-md-3">
            <label className="form-label" htmlFor={`${ids}-kind`}>
              {t('moderation.kind')}
            </label>
            <select id={`${ids}-kind`} name="kind" className="form-select" defaultValue={filters.kind ?? ''}>
              <option value="">{t('moderation.anyKind')}</option>
              {MODERATION_KINDS.map((kind) => (
                <option key={kind} value={kind}>
                  {t(`moderation.kinds.${kind}`)}
                </option>
              ))}
            </select>
          </div>
          <div className="col-md-2">
            <label className="form-label" htmlFor={`${ids}-status`}>
              {t('moderation.status')}
            </label>
            <select id={`${ids}-status`} name="status" className="form-select" defaultValue={filters.status}>
              <option value="open">{t('moderation.statuses.open')}</option>
              <option value="handled">{t('moderation.statuses.handled')}</option>
            </select>
          </div>
          <div className="col-md-2">
            <label className="form-label" htmlFor={`${ids}-site`}>
              {t('moderation.site')}
            </label>
            <input id={`${ids}-site`} name="site" type="number" min={1} className="form-control" defaultValue={filters.site ?? ''} />
          </div>
          <div className="col-md-2">
            <label className="form-label" htmlFor={`${ids}-age`}>
              {t('moderation.olderThan')}
            </label>
            <input
              id={`${ids}-age`}
              name="older_than_hours"
              type="number"
              min={1}
              className="form-control"
              defaultValue={filters.older_than_hours ?? ''}
            />
          </div>
          <div className="col-md-3 d-flex gap-2">
            <Button type="submit" variant="primary" testId="queue-filter">
              {t('moderation.filter')}
            </Button>
            <Button variant="outline-secondary" onClick={() => go({ page: 1, status: 'open' })} testId="queue-clear">
              {t('moderation.clear')}
            </Button>
          </div>
        </div>
      </form>

      {queue.isPending && <div className="spinner-border" role="status" aria-label={t('loading')} />}
      {queue.isError && (
        <div className="alert alert-danger" role="alert">
          {consoleErrorText(t, queue.error)}
        </div>
      )}
      {queue.data && queue.data.items.length === 0 && (
        <p className="text-body-secondary" data-testid="queue-empty">
          {t('moderation.empty')}
        </p>
      )}
      {queue.data && queue.data.items.length > 0 && (
        <>
          <p className="small text-body-secondary">{t('moderation.keys')}</p>
          <div className="table-responsive">
            <table className="table console-table align-middle" data-testid="queue-table" aria-busy={queue.isFetching || undefined}>
              <caption className="visually-hidden">{t('moderation.title')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('moderation.item')}</th>
                  <th scope="col">{t('moderation.when')}</th>
                  <th scope="col">{t('moderation.reported')}</th>
                  <th scope="col">{t('moderation.reporter')}</th>
                  <th scope="col">{t('moderation.site')}</th>
                  <th scope="col">{filters.status === 'handled' ? t('moderation.resolution') : t('moderation.summary')}</th>
                </tr>
              </thead>
              <tbody onKeyDown={moveBetweenRows}>
                {queue.data.items.map((item) => (
                  <tr key={`${item.kind}-${item.id}`} data-testid={`queue-${item.kind}-${item.id}`}>
                    <td>
                      <Link to={`items/${item.kind}/${item.id}`} data-row-link="">
                        {t(`moderation.kinds.${item.kind}`)} {item.reference ?? `#${item.id}`}
                      </Link>
                    </td>
                    <td className="small text-nowrap">{formatConsoleTime(item.created_at, i18n.language)}</td>
                    <td className="small" data-profile-id={item.reported?.profile_id}>
                      {item.reported ? item.reported.name : '–'}
                      {item.reported?.is_fictional && <FictionalBadge className="ms-1" />}
                    </td>
                    <td className="small">{item.reporter ? item.reporter.name : '–'}</td>
                    <td className="small">{item.site_id}</td>
                    <td className="small">
                      {filters.status === 'handled' && item.resolution
                        ? t(`moderation.resolutions.${item.resolution}`, { defaultValue: item.resolution })
                        : item.summary}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav className="console-pager" aria-label={t('moderation.pages')}>
            <Button
              variant="outline-dark"
              size="sm"
              disabled={filters.page <= 1}
              onClick={() => go({ ...filters, page: filters.page - 1 })}
              testId="queue-previous"
            >
              {t('moderation.previous')}
            </Button>
            <span data-testid="queue-page">{t('moderation.page', { page: queue.data.page, pages })}</span>
            <Button
              variant="outline-dark"
              size="sm"
              disabled={filters.page >= pages}
              onClick={() => go({ ...filters, page: filters.page + 1 })}
              testId="queue-next"
            >
              {t('moderation.next')}
            </Button>
            <span className="text-body-secondary small ms-auto">{t('moderation.total', { count: queue.data.total })}</span>
          </nav>
        </>
      )}
    </>
  );
}
