import type { MembersResponse } from '@amora/contracts/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useSettings } from '@/features/site/api/get-settings';
import { countryName } from '@/features/site/country-name';
import { LocalLink } from '@/features/site/local-link';
import { useLocale } from '@/features/site/use-locale';
import { usePageTitle } from '@/features/site/use-page-title';
import { ApiRequestError, api } from '@/lib/api-client';

/** /members: the landing page after login — the members of the site, newest first, in pages. */
export function MembersPage() {
  const { t } = useTranslation();
  usePageTitle(t('members.title'));
  const settings = useSettings();
  const locale = useLocale();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const query = useQuery({
    queryKey: ['members', page],
    queryFn: () => api<MembersResponse>('/api/members.php', { query: { page } }),
    placeholderData: keepPreviousData,
  });
  const needsLogin = query.error instanceof ApiRequestError && query.error.status === 403;
  return (
    <main id="main" className="container py-4">
      <h1 className="h3 mb-3">{t('members.title')}</h1>
      {needsLogin && (
        <div className="alert alert-info">
          {t('members.loginToSearch')} <LocalLink to="/login">{t('nav.login')}</LocalLink>
        </div>
      )}
      {query.isError && !needsLogin && <div className="alert alert-danger">{t('errors.generic')}</div>}
      <div className="row g-3" data-testid="member-list">
        {query.data?.results.map((m) => (
          <div className="col-6 col-md-4 col-lg-3" key={m.id}>
            <LocalLink
              to={`/members/${m.id}`}
              className="card h-100 shadow-sm border-0 text-decoration-none text-body"
              data-testid="member-card"
            >
              {m.thumb_url ? (
                <img
                  src={m.thumb_url}
                  alt=""
                  className="card-img-top"
                  style={{ aspectRatio: '4 / 5', objectFit: 'cover' }}
                  loading="lazy"
                />
              ) : (
                <div className="card-img-top bg-light" style={{ aspectRatio: '4 / 5' }} />
              )}
              <div className="card-body">
                <h2 className="h6 mb-1 d-flex align-items-center gap-1">
                  {m.name}
                  {m.is_fictional && (
                    <img
                      src={settings.fictional_icon}
                      alt={settings.fictional_singular}
                      title={settings.fictional_singular}
                      width={16}
                      height={16}
                    />
                  )}
                </h2>
                <p className="mb-0 small text-body-secondary">
                  {t('members.age', { age: m.age })} · {m.city ? `${m.city}, ` : ''}
                  {countryName(m.country, locale)}
                </p>
              </div>
            </LocalLink>
          </div>
        ))}
      </div>
      {query.data && query.data.results.length === 0 && <p>{t('members.empty')}</p>}
      <nav className="d-flex justify-content-between mt-4" aria-label={t('members.pages')}>
        <button type="button" className="btn btn-outline-dark" disabled={page <= 1} onClick={() => setParams({ page: String(page - 1) })}>
          {t('members.previous')}
        </button>
        <button
          type="button"
          className="btn btn-outline-dark"
          disabled={!query.data?.has_more}
          onClick={() => setParams({ page: String(page + 1) })}
        >
          {t('members.next')}
        </button>
      </nav>
    </main>
  );
}

export { MembersPage as Component };
