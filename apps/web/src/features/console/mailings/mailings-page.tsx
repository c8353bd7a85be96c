import {
  isLocale,
  LOCALE_INFO,
  type Locale,
  localeFromTag,
  MAILING_BODY_MAX,
  MAILING_KINDS,
  MAILING_SUBJECT_MAX,
  type Mailing,
  type MailingKind,
} from '@amora/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Route, Routes, useNavigate, useParams, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { useConfirm } from '@/components/ui/confirm';
import { FormField } from '@/components/ui/form-field';
import { useMe } from '../api/console';
import { consoleErrorText } from '../console-error';
import { formatConsoleTime } from '../shell/format';
import { useConsoleTitle } from '../shell/use-console-title';
import { fieldErrorOf } from '../sites/field-error';
import { useSites } from '../sites/sites-api';
import {
  type MailingBody,
  useCancelMailing,
  useMailing,
  useMailingSite,
  useMailings,
  usePreviewMailing,
  useSaveMailing,
  useSendMailing,
  useTestMailing,
} from './mailings-api';

/**
 * News and offers (section `mailings`): admins write a mailing for a site, look at it in the real mail template,
 * send themselves a test, then send it now or at a time, and follow (or cancel) its sending; support may read.
 */

type Texts = Partial<Record<Locale, { subject: string; body: string }>>;

const languageName = (locale: Locale) => LOCALE_INFO[locale].name;

function Loading({ error }: { error: unknown }) {
  const { t } = useTranslation('console');
  if (error) return <div className="alert alert-danger">{consoleErrorText(t, error)}</div>;
  return <div className="spinner-border" role="status" aria-label={t('loading')} />;
}

function NotFound() {
  const { t } = useTranslation('console');
  return (
    <p className="alert alert-warning" data-testid="console-not-found">
      {t('notFound')}
    </p>
  );
}

function StatusBadge({ status }: { status: Mailing['status'] }) {
  const { t } = useTranslation('console');
  const tone = { draft: 'secondary', scheduled: 'info', sending: 'warning', sent: 'success', cancelled: 'dark' }[status];
  return (
    <span className={`badge text-bg-${tone}`} data-testid="mailing-status">
      {t(`mailings.statuses.${status}`)}
    </span>
  );
}

/** Every mailing, newest first, with how far its sending got. */
function MailingList() {
  const { t, i18n } = useTranslation('console');
  useConsoleTitle(t('mailings.title'));
  const me = useMe();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const list = useMailings({ page });
  return (
    <>
      <div className="d-flex flex-wrap align-items-baseline gap-3 mb-2">
        <h1 className="h3 mb-0">{t('mailings.title')}</h1>
        {me.role === 'admin' && (
          <Link to="new" className="btn btn-primary btn-sm" data-testid="mailing-new">
            {t('mailings.new')}
          </Link>
        )}
      </div>
      <p className="text-body-secondary small">{t('mailings.intro')}</p>
      {!list.data ? (
        <Loading error={list.error} />
      ) : list.data.mailings.length === 0 ? (
        <p className="text-body-secondary">{t('mailings.empty')}</p>
      ) : (
        <>
          <div className="table-responsive">
            <table className="table console-table align-middle" data-testid="mailings-table">
              <caption className="visually-hidden">{t('mailings.title')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('mailings.columns.subject')}</th>
                  <th scope="col">{t('mailings.columns.site')}</th>
                  <th scope="col">{t('mailings.columns.kind')}</th>
                  <th scope="col">{t('mailings.columns.status')}</th>
                  <th scope="col">{t('mailings.columns.progress')}</th>
                  <th scope="col">{t('mailings.columns.when')}</th>
                </tr>
              </thead>
              <tbody>
                {list.data.mailings.map((m) => (
                  <tr key={m.id} data-testid={`mailing-${m.id}`}>
                    <td>
                      <Link to={String(m.id)}>{m.subject}</Link>
                      {m.created_by && <div className="small text-body-secondary">{m.created_by.name}</div>}
                    </td>
                    <td className="small">{m.site_name}</td>
                    <td className="small">{t(`mailings.kinds.${m.kind}`)}</td>
                    <td>
                      <StatusBadge status={m.status} />
                    </td>
                    <td className="small">
                      {m.status === 'draft'
                        ? '–'
                        : t('mailings.progressCell', { sent: m.progress.sent, recipients: m.progress.recipients })}
                    </td>
                    <td className="small">{formatConsoleTime(m.send_at ?? m.created_at, i18n.language)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {list.data.pages > 1 && (
            <nav className="d-flex gap-2 align-items-center" aria-label={t('mailings.title')}>
              <Button variant="outline-dark" size="sm" disabled={page <= 1} onClick={() => setParams({ page: String(page - 1) })}>
                {t('mailings.previous')}
              </Button>
              <span className="small">{t('mailings.page', { page, pages: list.data.pages })}</span>
              <Button
                variant="outline-dark"
                size="sm"
                disabled={page >= list.data.pages}
                onClick={() => setParams({ page: String(page + 1) })}
              >
                {t('mailings.next')}
              </Button>
            </nav>
          )}
        </>
      )}
    </>
  );
}

/** The locales a site's mailing is written in: its main language (from its domain language) first, then the others it offers. */
function localesOfSite(site: { domain_language: string; languages: readonly string[] }): { main: Locale; locales: Locale[] } {
  const main = localeFromTag(site.domain_language) ?? 'en';
  return { main, locales: [...new Set([main, ...site.languages.filter(isLocale)])] };
}

/** Writing a mailing (a new one, or a draft): site, kind, a subject and text per language, preview, test, send. */
function ComposeForm({ mailing }: { mailing: Mailing | null }) {
  const { t, i18n } = useTranslation('console');
  const me = useMe();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const sites = useSites();
  const [siteId, setSiteId] = useState<number | null>(mailing?.site_id ?? null);
  const chosenSite = siteId ?? sites.data?.sites[0]?.id ?? null;
  const site = useMailingSite(chosenSite);
  const [kind, setKind] = useState<MailingKind>(mailing?.kind ?? 'news');
  const [texts, setTexts] = useState<Texts>(mailing?.texts ?? {});
  const [active, setActive] = useState<Locale | null>(null);
  const [when, setWhen] = useState<'now' | 'later'>('now');
  const [sendAt, setSendAt] = useState('');
  const [testedTo, setTestedTo] = useState<{ email: string; locale: Locale } | null>(null);
  const save = useSaveMailing();
  const preview = usePreviewMailing();
  const test = useTestMailing();
  const send = useSendMailing();
  useConsoleTitle(mailing ? t('mailings.compose.titleDraft') : t('mailings.compose.titleNew'));

  if (!sites.data || (chosenSite !== null && !site.data)) return <Loading error={sites.error ?? site.error} />;
  const { main, locales } = site.data ? localesOfSite(site.data) : { main: 'en' as Locale, locales: ['en' as Locale] };
  const locale = active && locales.includes(active) ? active : main;
  const text = texts[locale] ?? { subject: '', body: '' };
  const failure = save.error ?? send.error ?? test.error ?? preview.error;
  const fieldError = fieldErrorOf(t, failure);
  const errorOf = (field: string) => (fieldError?.field.startsWith(field) ? fieldError.text : undefined);
  const busy = save.isPending || send.isPending || test.isPending;

  const setText = (part: 'subject' | 'body', value: string) => setTexts((all) => ({ ...all, [locale]: { ...text, [part]: value } }));
  /** The form as the server takes it: only the languages with something written. */
  const body = (): MailingBody => ({
    site_id: chosenSite ?? 0,
    kind,
    texts: Object.fromEntries(
      Object.entries(texts)
        .filter(([code, value]) => locales.includes(code as Locale) && value && (value.subject.trim() || value.body.trim()))
        .map(([code, value]) => [code, { subject: value?.subject.trim() ?? '', body: value?.body.trim() ?? '' }]),
    ),
  });
  const store = async (): Promise<Mailing> => {
    const stored = await save.mutateAsync({ id: mailing?.id ?? null, body: body() });
    if (!mailing) navigate(`../${stored.id}`, { replace: true });
    return stored;
  };
  const onSave = (event: FormEvent) => {
    event.preventDefault();
    store().catch(() => {});
  };
  const onTest = async () => {
    setTestedTo(null);
    const stored = await store().catch(() => null);
    if (!stored) return;
    test.mutate({ id: stored.id, locale }, { onSuccess: (answer) => setTestedTo({ email: answer.to, locale }) });
  };
  const onSend = async () => {
    const at = when === 'later' && sendAt ? new Date(sendAt).toISOString() : null;
    const stored = await store().catch(() => null);
    if (!stored) return;
    const isSure = await confirm({
      title: t('mailings.compose.confirmTitle'),
      message: (
        <>
          <p>{t('mailings.compose.confirmText', { count: stored.opted_in, site: stored.site_name })}</p>
          <p className="mb-0">
            {at ? t('mailings.compose.confirmAt', { time: formatConsoleTime(at, i18n.language) }) : t('mailings.compose.confirmNow')}
          </p>
        </>
      ),
      confirmLabel: t('mailings.compose.confirm'),
    });
    if (isSure) send.mutate({ id: stored.id, sendAt: at });
  };

  return (
    <>
      <nav className="small mb-2">
        <Link to="..">{t('mailings.back')}</Link>
      </nav>
      <h1 className="h3 mb-3">{mailing ? t('mailings.compose.titleDraft') : t('mailings.compose.titleNew')}</h1>
      <form className="card card-body mb-3" onSubmit={onSave} noValidate data-testid="mailing-form">
        <div className="row g-3">
          <div className="col-md-6">
            <FormField label={t('mailings.compose.site')} error={errorOf('site_id')} className="">
              <select
                name="site_id"
                className="form-select"
                value={chosenSite ?? ''}
                onChange={(e) => {
                  setSiteId(Number(e.target.value));
                  setActive(null);
                }}
              >
                {sites.data.sites.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name}
                  </option>
                ))}
              </select>
            </FormField>
          </div>
          <div className="col-md-6">
            <FormField
              label={t('mailings.compose.kind')}
              help={t(`mailings.compose.kindHelp.${kind}`)}
              error={errorOf('kind')}
              className=""
            >
              <select name="kind" className="form-select" value={kind} onChange={(e) => setKind(e.target.value as MailingKind)}>
                {MAILING_KINDS.map((k) => (
                  <option key={k} value={k}>
                    {t(`mailings.kinds.${k}`)}
                  </option>
                ))}
              </select>
            </FormField>
          </div>
        </div>
        {mailing && (
          <p className="small text-body-secondary mt-2 mb-0" data-testid="mailing-opted-in">
            {t('mailings.optedIn', { count: mailing.opted_in, site: mailing.site_name })}
          </p>
        )}

        <h2 className="h6 mt-4">{t('mailings.compose.languages')}</h2>
        <div className="nav nav-tabs mb-3" role="tablist" aria-label={t('mailings.compose.languages')}>
          {locales.map((code) => {
            const written = Boolean(texts[code]?.subject.trim() || texts[code]?.body.trim());
            return (
              <button
                key={code}
                type="button"
                role="tab"
                aria-selected={code === locale}
                className={`nav-link${code === locale ? ' active' : ''}${errorOf(`texts.${code}`) ? ' text-danger' : ''}`}
                onClick={() => setActive(code)}
                data-testid={`mailing-tab-${code}`}
              >
                {code === main ? t('mailings.compose.mainLanguage', { language: languageName(code) }) : languageName(code)}
                {written && <span className="visually-hidden"> ({t('mailings.compose.written')})</span>}
                {written && (
                  <span className="ms-1" aria-hidden="true">
                    ✓
                  </span>
                )}
              </button>
            );
          })}
        </div>
        <div role="tabpanel" aria-label={languageName(locale)}>
          <FormField label={t('mailings.compose.subject')} error={errorOf(`texts.${locale}`)} isRequired={locale === main}>
            <input
              name="subject"
              className="form-control"
              maxLength={MAILING_SUBJECT_MAX}
              value={text.subject}
              onChange={(e) => setText('subject', e.target.value)}
              data-testid="mailing-subject"
            />
          </FormField>
          <FormField
            label={t('mailings.compose.body')}
            help={`${t('mailings.compose.bodyHelp')} ${t('mailings.compose.fallbackHelp', { language: languageName(main) })}`}
            isRequired={locale === main}
          >
            <textarea
              name="body"
              className="form-control"
              rows={10}
              maxLength={MAILING_BODY_MAX}
              value={text.body}
              onChange={(e) => setText('body', e.target.value)}
              data-testid="mailing-body"
            />
          </FormField>
        </div>

        {failure && !fieldError && (
          <div className="alert alert-danger" role="alert">
            {consoleErrorText(t, failure)}
          </div>
        )}
        {fieldError && (
          <div className="alert alert-danger" role="alert" data-testid="mailing-field-error">
            {fieldError.field.startsWith('texts.') ? `${languageName(fieldError.field.split('.')[1] as Locale)}: ` : ''}
            {fieldError.text}
          </div>
        )}
        {save.isSuccess && !busy && !failure && (
          <div className="alert alert-success py-2" role="status" data-testid="mailing-saved">
            {t('mailings.compose.saved')}
          </div>
        )}
        <div className="d-flex flex-wrap gap-2">
          <Button type="submit" variant="outline-primary" disabled={busy} testId="mailing-save">
            {t('mailings.compose.save')}
          </Button>
          <Button
            variant="outline-dark"
            disabled={preview.isPending || !chosenSite || !text.subject.trim() || !text.body.trim()}
            testId="mailing-preview"
            onClick={() => preview.mutate({ site_id: chosenSite ?? 0, kind, locale, subject: text.subject.trim(), body: text.body.trim() })}
          >
            {t('mailings.compose.preview')}
          </Button>
          <Button variant="outline-dark" className="mw-100 text-break" disabled={busy} testId="mailing-test" onClick={onTest}>
            {t('mailings.compose.test', { email: me.email })}
          </Button>
        </div>
        {testedTo && (
          <p className="small text-success mt-2 mb-0" role="status" data-testid="mailing-test-sent">
            {t('mailings.compose.testSent', { language: languageName(testedTo.locale), email: testedTo.email })}
          </p>
        )}
      </form>

      {preview.data && (
        <section className="card card-body mb-3" aria-labelledby="mailing-preview-title" data-testid="mailing-preview-panel">
          <h2 className="h6" id="mailing-preview-title">
            {t('mailings.compose.previewTitle', { language: languageName(locale) })}
          </h2>
          <p className="small mb-1">
            <strong>{t('mailings.compose.subject')}:</strong> {preview.data.subject}
          </p>
          <p className="small text-body-secondary">{t('mailings.compose.previewNote')}</p>
          <iframe
            title={t('mailings.compose.previewFrame')}
            sandbox=""
            srcDoc={preview.data.html}
            className="w-100 border rounded bg-white"
            style={{ height: 560 }}
            data-testid="mailing-preview-frame"
          />
        </section>
      )}

      <section className="card card-body" aria-labelledby="mailing-send-title">
        <h2 className="h6" id="mailing-send-title">
          {t('mailings.compose.sendTitle')}
        </h2>
        <fieldset className="mb-2">
          <legend className="visually-hidden">{t('mailings.compose.sendTitle')}</legend>
          <div className="form-check form-check-inline">
            <input
              id="mailing-when-now"
              className="form-check-input"
              type="radio"
              name="when"
              checked={when === 'now'}
              onChange={() => setWhen('now')}
            />
            <label className="form-check-label" htmlFor="mailing-when-now">
              {t('mailings.compose.sendNow')}
            </label>
          </div>
          <div className="form-check form-check-inline">
            <input
              id="mailing-when-later"
              className="form-check-input"
              type="radio"
              name="when"
              checked={when === 'later'}
              onChange={() => setWhen('later')}
            />
            <label className="form-check-label" htmlFor="mailing-when-later">
              {t('mailings.compose.sendLater')}
            </label>
          </div>
        </fieldset>
        {when === 'later' && (
          <FormField label={t('mailings.compose.sendAt')} error={errorOf('send_at')} className="mb-2 console-select">
            <input
              type="datetime-local"
              className="form-control"
              value={sendAt}
              onChange={(e) => setSendAt(e.target.value)}
              data-testid="mailing-send-at"
            />
          </FormField>
        )}
        <div>
          <Button variant="primary" disabled={busy || (when === 'later' && !sendAt)} testId="mailing-send" onClick={onSend}>
            {t('mailings.compose.send')}
          </Button>
        </div>
      </section>
    </>
  );
}

/** A mailing that is no longer a draft (or any, for support): its texts and how far its sending got. */
function MailingView({ mailing }: { mailing: Mailing }) {
  const { t, i18n } = useTranslation('console');
  const me = useMe();
  const confirm = useConfirm();
  const cancel = useCancelMailing();
  const time = (iso: string | null) => (iso ? formatConsoleTime(iso, i18n.language) : '–');
  const { progress } = mailing;
  const canCancel =
    me.role === 'admin' &&
    (mailing.status === 'draft' ||
      mailing.status === 'scheduled' ||
      mailing.status === 'sending' ||
      (mailing.status === 'sent' && progress.queued + progress.failed > 0));
  const onCancel = async () => {
    const isSure = await confirm({
      title: t('mailings.view.cancelTitle'),
      message: t('mailings.view.cancelText'),
      confirmLabel: t('mailings.view.cancel'),
      isDanger: true,
    });
    if (isSure) cancel.mutate(mailing.id);
  };
  const figures = [
    ['recipients', progress.recipients],
    ['queued', progress.queued],
    ['sent', progress.sent],
    ['failed', progress.failed],
    ['notSent', progress.not_sent],
  ] as const;
  const texts = Object.entries(mailing.texts) as [Locale, { subject: string; body: string }][];
  return (
    <>
      <nav className="small mb-2">
        <Link to="..">{t('mailings.back')}</Link>
      </nav>
      <div className="d-flex flex-wrap align-items-baseline gap-2 mb-1">
        <h1 className="h3 mb-0">{mailing.subject}</h1>
        <StatusBadge status={mailing.status} />
      </div>
      <p className="text-body-secondary small">
        {mailing.site_name} · {t(`mailings.kinds.${mailing.kind}`)}
        {mailing.created_by && <> · {t('mailings.view.createdBy', { name: mailing.created_by.name })}</>}
      </p>
      {me.role !== 'admin' && <p className="small text-body-secondary">{t('mailings.view.readOnly')}</p>}

      <section className="card card-body mb-3" aria-labelledby="mailing-progress-title">
        <h2 className="h6" id="mailing-progress-title">
          {t('mailings.view.progress')}
        </h2>
        <dl className="row mb-0 small" data-testid="mailing-progress">
          {figures.map(([key, value]) => (
            <div className="col-6 col-md" key={key}>
              <dt className="fw-normal text-body-secondary">{t(`mailings.view.${key}`)}</dt>
              <dd className="fs-4 fw-semibold mb-0" data-testid={`mailing-progress-${key}`}>
                {value.toLocaleString(i18n.language)}
              </dd>
            </div>
          ))}
        </dl>
        <dl className="row mb-0 mt-3 small">
          <dt className="col-sm-3 fw-normal text-body-secondary">{t('mailings.view.sendAt')}</dt>
          <dd className="col-sm-9">{time(mailing.send_at)}</dd>
          <dt className="col-sm-3 fw-normal text-body-secondary">{t('mailings.view.finishedAt')}</dt>
          <dd className="col-sm-9">{time(mailing.finished_at)}</dd>
          {mailing.cancelled_at && (
            <>
              <dt className="col-sm-3 fw-normal text-body-secondary">{t('mailings.view.cancelledAt')}</dt>
              <dd className="col-sm-9">{time(mailing.cancelled_at)}</dd>
            </>
          )}
        </dl>
        {mailing.status !== 'sent' && mailing.status !== 'cancelled' && (
          <p className="small text-body-secondary mt-2 mb-0">
            {t('mailings.optedIn', { count: mailing.opted_in, site: mailing.site_name })}
          </p>
        )}
        {canCancel && (
          <div className="mt-3">
            <Button variant="outline-danger" size="sm" disabled={cancel.isPending} testId="mailing-cancel" onClick={onCancel}>
              {t('mailings.view.cancel')}
            </Button>
          </div>
        )}
        {cancel.isError && <div className="alert alert-danger mt-2 mb-0">{consoleErrorText(t, cancel.error)}</div>}
      </section>

      <section aria-labelledby="mailing-texts-title">
        <h2 className="h6" id="mailing-texts-title">
          {t('mailings.view.texts')}
        </h2>
        {texts.map(([code, value]) => (
          <article className="card card-body mb-2" key={code} lang={code}>
            <div className="small text-body-secondary" lang={i18n.language}>
              {languageName(code)}
            </div>
            <div className="fw-semibold">{value.subject}</div>
            <div className="small" style={{ whiteSpace: 'pre-wrap' }}>
              {value.body}
            </div>
          </article>
        ))}
      </section>
    </>
  );
}

/**
 * A mailing by its address: `new` (admins) or its id; the draft's form for an admin, else what it is and how far
 * it got. The form stays the same component when a new mailing is first saved and the address takes its id, so
 * what is being written (the open language, a test under way) is kept.
 */
function MailingPage() {
  const { t } = useTranslation('console');
  const me = useMe();
  const param = useParams().id;
  const isNew = param === 'new';
  const id = Number(param);
  const valid = isNew || (Number.isInteger(id) && id > 0);
  const mailing = useMailing(valid && !isNew ? id : null);
  useConsoleTitle(mailing.data?.subject ?? t('mailings.title'));
  if (!valid || (isNew && me.role !== 'admin')) return <NotFound />;
  if (isNew) return <ComposeForm mailing={null} />;
  if (!mailing.data) return <Loading error={mailing.error} />;
  if (mailing.data.status === 'draft' && me.role === 'admin') return <ComposeForm mailing={mailing.data} />;
  return <MailingView mailing={mailing.data} />;
}

/** News and offers: the list, a new mailing at `new`, a mailing at `:id`. */
export function MailingsPage() {
  return (
    <Routes>
      <Route index element={<MailingList />} />
      <Route path=":id" element={<MailingPage />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

export { MailingsPage as Component };
