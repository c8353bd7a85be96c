import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { consoleErrorText } from '../console-error';
import { FictionalBadge } from '../shell/fictional-badge';
import { formatConsoleTime } from '../shell/format';
import { moveBetweenRows } from '../shell/row-keys';
import { useConsoleTitle } from '../shell/use-console-title';
import { useInbox } from './inbox-api';
import type { InboxLiveState } from './inbox-live';

const positive = (value: string | null): number | undefined => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : undefined;
};

/**
 * The inbox: members' messages to fictional profiles waiting for an answer, the longest waiting first, of every
 * site or of the one picked. `live`: how the live channel stands (open: what changes shows at once).
 */
export function InboxListPage({ live }: { live: InboxLiveState }) {
  const { t, i18n } = useTranslation('console');
  const ids = useId();
  const [params, setParams] = useSearchParams();
  const filters = { page: positive(params.get('page')) ?? 1, site: positive(params.get('site')) };
  const inbox = useInbox(filters, live === 'open');
  useConsoleTitle(t('inbox.title'));
  const go = (next: { page: number; site?: number }) => {
    const values: Record<string, string> = {};
    if (next.page > 1) values.page = String(next.page);
    if (next.site) values.site = String(next.site);
    setParams(values);
  };

  return (
    <>
      <div className="d-flex flex-wrap align-items-end gap-3 mb-3" data-live={live}>
        <h1 className="h3 mb-0 me-auto">{t('inbox.title')}</h1>
        {inbox.data && (
          <div>
            <label className="form-label small mb-1" htmlFor={`${ids}-site`}>
              {t('inbox.site')}
            </label>
            <select
              id={`${ids}-site`}
              className="form-select form-select-sm"
              value={filters.site ?? ''}
              onChange={(event) => go({ page: 1, site: positive(event.target.value) })}
              data-testid="inbox-site"
            >
              <option value="">{t('inbox.allSites')}</option>
              {inbox.data.sites.map((site) => (
                <option key={site.id} value={site.id}>
                  {site.name}
                </option>
              ))}
            </select>
          </div>
        )}
        <Link to="/console/fictional-profiles" className="btn btn-outline-secondary btn-sm">
          {t('nav.fictional')}
        </Link>
      </div>
      <p className="text-body-secondary">{t('inbox.intro')}</p>
      {live === 'off' && inbox.data && (
        <p className="small text-warning-emphasis" role="status" data-testid="inbox-live-off">
          {t('inbox.liveOff')}
        </p>
      )}
      {inbox.isPending && <div className="spinner-border" role="status" aria-label={t('loading')} />}
      {inbox.isError && (
        <div className="alert alert-danger" role="alert">
          {consoleErrorText(t, inbox.error)}
        </div>
      )}
      {inbox.data && inbox.data.items.length === 0 && (
        <p className="text-body-secondary" data-testid="inbox-empty">
          {t('inbox.empty')}
        </p>
      )}
      {inbox.data && inbox.data.items.length > 0 && (
        <>
          <p className="small text-body-secondary">
            {t('inbox.count', { count: inbox.data.total })} {t('inbox.keys')}
          </p>
          <div className="table-responsive">
            <table className="table console-table align-middle" data-testid="inbox-table" aria-busy={inbox.isFetching || undefined}>
              <caption className="visually-hidden">{t('inbox.title')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('inbox.member')}</th>
                  <th scope="col">{t('inbox.fictionalProfile')}</th>
                  <th scope="col">{t('inbox.waitingSince')}</th>
                  <th scope="col">{t('inbox.site')}</th>
                  <th scope="col">{t('inbox.claim')}</th>
                </tr>
              </thead>
              <tbody onKeyDown={moveBetweenRows}>
                {inbox.data.items.map((item) => (
                  <tr key={item.conversation_id} data-testid={`inbox-${item.conversation_id}`}>
                    <td>
                      <div className="d-flex align-items-center gap-2">
                        {item.member.photo_url ? (
                          <img src={item.member.photo_url} alt="" width={40} height={40} className="rounded object-fit-cover" />
                        ) : null}
                        <Link to={String(item.conversation_id)} data-row-link="">
                          {item.member.name}, {item.member.age}
                        </Link>
                        <span className="small text-body-secondary">{item.member.city ?? item.member.country}</span>
                      </div>
                    </td>
                    <td className="small" data-profile-id={item.fictional.id}>
                      {item.fictional.name} <FictionalBadge />
                    </td>
                    <td className="small text-nowrap">
                      {formatConsoleTime(item.last_message_at, i18n.language)}
                      <div className="text-body-secondary">{t('inbox.waiting', { count: item.waiting })}</div>
                    </td>
                    <td className="small">{item.site.name}</td>
                    <td className="small">
                      {item.claim
                        ? item.claim.mine
                          ? t('inbox.claimedByMe')
                          : t('inbox.claimedBy', { name: item.claim.staff_name })
                        : '–'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav className="console-pager" aria-label={t('inbox.pages')}>
            <Button
              variant="outline-dark"
              size="sm"
              disabled={filters.page <= 1}
              onClick={() => go({ ...filters, page: filters.page - 1 })}
              testId="inbox-previous"
            >
              {t('inbox.previous')}
            </Button>
            <span className="small">{t('inbox.page', { page: inbox.data.page, pages: inbox.data.pages })}</span>
            <Button
              variant="outline-dark"
              size="sm"
              disabled={filters.page >= inbox.data.pages}
              onClick={() => go({ ...filters, page: filters.page + 1 })}
              testId="inbox-next"
            >
              {t('inbox.next')}
            </Button>
          </nav>
        </>
      )}
    </>
  );
}
