import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Route, Routes, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { consoleErrorText } from '../console-error';
import { ConsoleNotFound } from '../shell/console-errors';
import { formatConsoleTime } from '../shell/format';
import { useConsoleTitle } from '../shell/use-console-title';
import { MemberPage } from './member-page';
import { useMemberSearch } from './support-api';

/** Arrow keys move between the results' links (Home and End to the first and last); Enter opens one. */
function moveFocus(event: KeyboardEvent<HTMLTableSectionElement>) {
  const links = [...event.currentTarget.querySelectorAll<HTMLAnchorElement>('a[data-row-link]')];
  const at = links.indexOf(document.activeElement as HTMLAnchorElement);
  const next =
    event.key === 'ArrowDown'
      ? at + 1
      : event.key === 'ArrowUp'
        ? at - 1
        : event.key === 'Home'
          ? 0
          : event.key === 'End'
            ? links.length - 1
            : null;
  if (next === null || links.length === 0) return;
  event.preventDefault();
  links[Math.max(0, Math.min(links.length - 1, next))].focus();
}

/** Finding a member on any site: by address, account id, profile id (p123) or name; the query is in the address. */
function MemberSearch() {
  const { t, i18n } = useTranslation('console');
  const [params, setParams] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const search = useMemberSearch(q, page);
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  useConsoleTitle(t('support.title'));
  // A search page opened without a query: its one field takes the keyboard.
  useEffect(() => {
    if (!q) field.current?.focus();
  }, [q]);

  const go = (nextQ: string, nextPage: number) => setParams(nextQ ? { q: nextQ, ...(nextPage > 1 ? { page: String(nextPage) } : {}) } : {});
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    go(String(new FormData(event.currentTarget).get('q') ?? '').trim(), 1);
  };

  return (
    <>
      <h1 className="h3 mb-3">{t('support.title')}</h1>
      <form className="card card-body mb-3" role="search" onSubmit={submit} aria-label={t('support.searchLabel')}>
        <label className="form-label" htmlFor={id}>
          {t('support.searchLabel')}
        </label>
        <div className="d-flex gap-2" key={q}>
          <input
            ref={field}
            id={id}
            name="q"
            type="search"
            className="form-control"
            maxLength={120}
            defaultValue={q}
            placeholder={t('support.searchPlaceholder')}
          />
          <Button type="submit" variant="primary" testId="member-search">
            {t('support.search')}
          </Button>
        </div>
        <div className="form-text">{t('support.searchHint')}</div>
      </form>

      {search.isFetching && !search.data && <div className="spinner-border" role="status" aria-label={t('loading')} />}
      {search.isError && (
        <div className="alert alert-danger" role="alert">
          {consoleErrorText(t, search.error)}
        </div>
      )}
      {q && search.data && search.data.members.length === 0 && (
        <p className="text-body-secondary" data-testid="members-empty">
          {t('support.noResults', { q })}
        </p>
      )}
      {q && search.data && search.data.members.length > 0 && (
        <>
          <div className="table-responsive">
            <table className="table console-table align-middle" data-testid="members-table" aria-busy={search.isFetching || undefined}>
              <caption className="visually-hidden">{t('support.title')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('support.columns.name')}</th>
                  <th scope="col">{t('support.columns.email')}</th>
                  <th scope="col">{t('support.columns.site')}</th>
                  <th scope="col">{t('support.columns.status')}</th>
                  <th scope="col">{t('support.columns.ids')}</th>
                  <th scope="col">{t('support.columns.signup')}</th>
                </tr>
              </thead>
              <tbody onKeyDown={moveFocus}>
                {search.data.members.map((member) => (
                  <tr key={member.user_id} data-testid={`member-${member.user_id}`}>
                    <td>
                      <Link to={String(member.user_id)} data-row-link>
                        {member.name || '—'}
                      </Link>
                    </td>
                    <td className="small text-break">{member.email}</td>
                    <td className="small">{member.site.name}</td>
                    <td className="small">{t(`support.status.${member.status}` as never)}</td>
                    <td className="small text-nowrap">
                      {member.user_id}
                      {member.profile_id !== null && ` · p${member.profile_id}`}
                    </td>
                    <td className="small text-nowrap">{formatConsoleTime(member.signup_date, i18n.language)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav className="console-pager" aria-label={t('support.pages')}>
            <Button variant="outline-dark" size="sm" disabled={page <= 1} onClick={() => go(q, page - 1)} testId="members-previous">
              {t('support.previous')}
            </Button>
            <span data-testid="members-page">{t('support.page', { page: search.data.page, pages: search.data.pages })}</span>
            <Button
              variant="outline-dark"
              size="sm"
              disabled={search.data.page >= search.data.pages}
              onClick={() => go(q, page + 1)}
              testId="members-next"
            >
              {t('support.next')}
            </Button>
            <span className="text-body-secondary small ms-auto">{t('support.total', { count: search.data.total })}</span>
          </nav>
        </>
      )}
    </>
  );
}

/** The members section: the search, and a member's page under it (/console/members/123). */
export function SupportPage() {
  return (
    <Routes>
      <Route index element={<MemberSearch />} />
      <Route path=":userId" element={<MemberPage />} />
      <Route path="*" element={<ConsoleNotFound />} />
    </Routes>
  );
}

export { SupportPage as Component };
