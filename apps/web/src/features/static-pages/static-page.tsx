import { STATIC_PAGES, TOKEN_PAGES } from '@amora/contracts/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { formatLongDate } from '@/lib/format-time';
import { ErrorPage } from '@/shared/errors/error-page';
import { useCompanyInfo } from '@/shared/site/api/get-company-info';
import { useSettings } from '@/shared/site/api/get-settings';
import { useLocale } from '@/shared/site/use-locale';
import { usePageTitle } from '@/shared/site/use-page-title';
import { pageValues } from './page-values';

interface Section {
  heading: string;
  body: string;
}

function ContentPage({ pageKey }: { pageKey: string }) {
  const { t } = useTranslation('pages');
  const settings = useSettings();
  const locale = useLocale();
  const company = useCompanyInfo();
  const values = pageValues(settings, company, (iso) => formatLongDate(iso, locale), locale);
  const title = t(`${pageKey}.title`, values);
  usePageTitle(title);
  const raw = t(`${pageKey}.sections`, { returnObjects: true, ...values }) as unknown;
  const sections = raw && typeof raw === 'object' ? (raw as Record<string, Section>) : {};
  return (
    <main id="main" className="container static-page" data-testid={`page-${pageKey}`}>
      <header>
        <h1 className="mb-2">{title}</h1>
        {pageKey === 'terms' && <p className="small text-body-secondary mb-2">{t('terms.version', values)}</p>}
        <p className="lead mb-0">{t(`${pageKey}.intro`, values)}</p>
      </header>
      {Object.entries(sections).map(([key, section]) => (
        <section key={key} id={`section-${key}`} aria-labelledby={`section-${key}-title`}>
          <h2 id={`section-${key}-title`}>{section.heading}</h2>
          {section.body.split('\n\n').map((paragraph) => (
            <p key={paragraph.slice(0, 40)}>{paragraph}</p>
          ))}
        </section>
      ))}
    </main>
  );
}

/** /pages/{terms,privacy,cookies,ban,faq,return-policy,service} */
export function StaticPage() {
  const { page = '' } = useParams();
  const key = (STATIC_PAGES as Record<string, string>)[page];
  if (!key) return <ErrorPage status={404} />;
  return <ContentPage pageKey={key} />;
}

/** /{token}: the site's other content pages; any other token is a 404. */
export function TokenPage() {
  const { token = '' } = useParams();
  if (!(TOKEN_PAGES as readonly string[]).includes(token)) return <ErrorPage status={404} />;
  return <ContentPage pageKey={token} />;
}
