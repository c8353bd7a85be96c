import { type EndpointBody, LOCALES, type Locale } from '@amora/contracts/core';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { ApiRequestError } from '@/lib/api-client';
import { consoleErrorText } from '../console-error';
import { useSitePreview } from './sites-api';

type Draft = EndpointBody<'PUT /api/console/sites/:id'>;

const WIDTHS = { desktop: '100%', phone: '390px' } as const;

const isLocale = (value: string | undefined): value is Locale => (LOCALES as readonly string[]).includes(value ?? '');

/** The languages the draft names that the preview can show. */
function languagesOf(draft: Draft): Locale[] {
  const named = (draft.languages ?? []).filter(isLocale);
  return named.length ? [...new Set(named)] : ['en'];
}

/** The language a visitor meets first: the domain's language when the site speaks it, else English, else the first. */
function firstLanguageOf(draft: Draft, languages: Locale[]): Locale {
  const domain = draft.domain_language?.slice(0, 2);
  if (isLocale(domain) && languages.includes(domain)) return domain;
  return languages.includes('en') ? 'en' : languages[0];
}

/**
 * The site's landing page as a visitor will see it with the form's settings, before they are saved: the server
 * draws it with the site's own render (POST …/preview), and it shows in a frame that runs nothing and shares
 * nothing with the console. In each language of the draft, at a desktop's or a phone's width, and as a first visit
 * (with the entry warning) or not.
 */
export function SitePreview({ siteId, siteName, draft, onClose }: { siteId: number; siteName: string; draft: Draft; onClose: () => void }) {
  const { t } = useTranslation('console');
  const languages = languagesOf(draft);
  const [lang, setLang] = useState<Locale>(() => firstLanguageOf(draft, languages));
  const [device, setDevice] = useState<keyof typeof WIDTHS>('desktop');
  const [firstVisit, setFirstVisit] = useState(false);
  const shown = languages.includes(lang) ? lang : languages[0];
  const preview = useSitePreview(siteId, draft, shown, firstVisit);
  const titleId = useId();
  const error = preview.error;
  const errorText =
    error instanceof ApiRequestError && error.status === 400 && error.field
      ? t('sites.preview.fixField', { field: error.field })
      : error instanceof ApiRequestError && error.status === 503
        ? t('sites.preview.unavailable')
        : error
          ? consoleErrorText(t, error)
          : null;
  return (
    <Dialog isOpen labelledBy={titleId} onClose={onClose} testId="site-preview-dialog" className="site-preview-dialog">
      <div className="modal-header gap-3 flex-wrap">
        <h2 className="modal-title h5 me-auto" id={titleId}>
          {t('sites.preview.title', { site: draft.name || siteName })}
        </h2>
        <label className="d-flex align-items-center gap-2 small">
          {t('sites.preview.language')}
          <select
            className="form-select form-select-sm w-auto"
            value={shown}
            onChange={(e) => setLang(e.target.value as Locale)}
            data-testid="site-preview-lang"
          >
            {languages.map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="btn-group btn-group-sm" aria-label={t('sites.preview.device')}>
          {(['desktop', 'phone'] as const).map((d) => (
            <Button
              key={d}
              variant={device === d ? 'secondary' : 'outline-secondary'}
              size="sm"
              aria-pressed={device === d}
              onClick={() => setDevice(d)}
              testId={`site-preview-${d}`}
            >
              {t(`sites.preview.${d}`)}
            </Button>
          ))}
        </fieldset>
        <label className="form-check form-switch small mb-0">
          <input
            type="checkbox"
            className="form-check-input"
            checked={firstVisit}
            onChange={(e) => setFirstVisit(e.target.checked)}
            data-testid="site-preview-first-visit"
          />
          <span className="form-check-label">{t('sites.preview.firstVisit')}</span>
        </label>
        <Button variant="outline-secondary" size="sm" onClick={onClose} testId="site-preview-close">
          {t('sites.preview.close')}
        </Button>
      </div>
      <div className="modal-body site-preview-body">
        <p className="small text-body-secondary mb-2">{t('sites.preview.unsaved')}</p>
        {errorText && (
          <div className="alert alert-warning" role="alert" data-testid="site-preview-error">
            {errorText}
          </div>
        )}
        {preview.data ? (
          <iframe
            className={`site-preview-frame${preview.isFetching ? ' is-stale' : ''}`}
            // No scripts, no forms, no windows: the page is only looked at. Same origin only for its styles and
            // font, which the browser would refuse a frame of no origin; without scripts nothing in it can use it.
            sandbox="allow-same-origin"
            srcDoc={preview.data.html}
            title={t('sites.preview.frame', { site: draft.name || siteName })}
            style={{ width: WIDTHS[device] }}
            data-testid="site-preview-frame"
          />
        ) : (
          !errorText && <div className="spinner-border" role="status" aria-label={t('loading')} />
        )}
      </div>
    </Dialog>
  );
}
