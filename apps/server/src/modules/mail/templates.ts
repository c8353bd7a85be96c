import { isLocale } from '@amora/contracts';
import { loadCatalogue, lookup, translate } from '@amora/i18n';
import type { Site } from '../sites/sites.service';

/** The mails there are; each has its subject and body in the `emails` catalogue of packages/i18n. */
export type MailKind =
  | 'activation'
  | 'reset'
  | 'mail_change'
  | 'mail_change_notice'
  | 'deleted'
  | 'reactivated'
  | 'password_changed'
  | 'data_export'
  | 'report_handled'
  | ActivityMailKind
  | OccasionalMailKind
  | WrittenMailKind;

/**
 * Mailings staff write in the console (modules/campaigns), named by their notification type: the subject and the
 * text are the author's (`vars.subject`, `vars.body`), the frame around them the site's, as every mail's. Not
 * essential: each carries its unsubscribe links.
 */
type WrittenMailKind = 'news' | 'promotions';
const WRITTEN_KINDS: ReadonlySet<MailKind> = new Set<MailKind>(['news', 'promotions']);

/**
 * Mails that come now and then rather than for an event (modules/reminders): the reminder to confirm the address,
 * the one to add a photo, the weekly update. Not essential: each carries its unsubscribe links.
 */
type OccasionalMailKind = 'reminder_confirm' | 'reminder_profile' | 'weekly_update';

/**
 * The member's activity while away (modules/notifications), by what it holds: one sender's message(s), several
 * senders' messages, a match, one like, several likes. Not essential: each carries its unsubscribe links.
 */
export type ActivityMailKind =
  | 'activity_message'
  | 'activity_messages'
  | 'activity_match'
  | 'activity_like'
  | 'activity_likes'
  | 'unread_reminder';

/** Extra parts of a mail: a list under the body, and the unsubscribe links of a mail that is not essential. */
export interface MailExtras {
  items?: string[];
  /** `oneClick` makes the List-Unsubscribe header; a mail to no member (a mailing's test) has none. */
  unsubscribe?: { link: string; preferences: string; oneClick?: string };
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

const BRAND_COLOUR = '#c8213a';

/** The kinds whose mail carries a button; their `vars.link` must be an http(s) URL. */
const LINK_KINDS = new Set<MailKind>([
  'activation',
  'reset',
  'mail_change',
  'deleted',
  'data_export',
  'activity_message',
  'activity_messages',
  'activity_match',
  'activity_like',
  'activity_likes',
  'unread_reminder',
  'reminder_confirm',
  'reminder_profile',
  'weekly_update',
]);

/** The number a kind's body counts, which picks its plural form: the hours a reset link lasts, the days to reactivate. */
const COUNTED_VAR: Partial<Record<MailKind, string>> = { reset: 'hours', deleted: 'days', data_export: 'days' };

/** Spec's fallback chain, as `translate()` walks it: the member's locale → it → en. */
const FALLBACK_CHAIN = ['it', 'en'];

const FONT = 'Arial, Helvetica, sans-serif';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The language the mail is written in: the member's locale when it has an `emails` catalogue with this kind,
 * else the first fallback that has one. A region tag ('de-DE') counts as its language; anything that is not one
 * of our locales is never used as a file path.
 */
export function mailLocale(kind: MailKind, locale: string): string {
  const base = locale.toLowerCase().split(/[-_]/)[0];
  const wanted = isLocale(locale) ? [locale] : isLocale(base) ? [base] : [];
  for (const candidate of [...wanted, ...FALLBACK_CHAIN]) {
    try {
      const emails = loadCatalogue(candidate, 'emails');
      // A written mail's subject is its author's: the catalogue has the frame's line for it.
      if (WRITTEN_KINDS.has(kind)) {
        if (lookup(emails, `${kind}.ignore`) !== undefined) return candidate;
        continue;
      }
      // A subject that counts has its plural forms instead.
      if (lookup(emails, `${kind}.subject`) !== undefined || lookup(emails, `${kind}.subject_other`) !== undefined) return candidate;
    } catch {
      // no emails.json for this locale yet
    }
  }
  return 'en';
}

const regionNames = new Map<string, Intl.DisplayNames>();

/** A company's ISO country code as a name in the mail's language (Norwegian is 'nb' in CLDR). */
export function countryName(code: string, locale: string): string {
  const language = locale === 'no' ? 'nb' : locale;
  try {
    let names = regionNames.get(language);
    if (!names) {
      names = new Intl.DisplayNames([language, 'en'], { type: 'region' });
      regionNames.set(language, names);
    }
    return names.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

/** Text from the `emails` catalogue with `{placeholders}` filled; values never go through as markup. */
function textOf(locale: string, key: string, values: Record<string, string | number>): string {
  return translate(locale, key, values, 'emails');
}

const SENTINEL = '\u0000';

/**
 * The same text as HTML: everything escaped, the catalogue's words and the interpolated values alike. The
 * placeholders named in `links` become links (e.g. the support address as a mailto: link).
 */
function htmlOf(
  locale: string,
  key: string,
  values: Record<string, string | number>,
  links: Record<string, { href: string; style: string }> = {},
): string {
  const marked = { ...values };
  for (const name of Object.keys(links)) marked[name] = `${SENTINEL}${name}${SENTINEL}`;
  let html = escapeHtml(textOf(locale, key, marked));
  for (const [name, link] of Object.entries(links)) {
    const anchor = `<a href="${escapeHtml(link.href)}" style="${link.style}">${escapeHtml(String(values[name] ?? ''))}</a>`;
    html = html.split(`${SENTINEL}${name}${SENTINEL}`).join(anchor);
  }
  return html;
}

function paragraphsOf(text: string): string[] {
  return text
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean);
}

function clean(vars: Record<string, string | number>): Record<string, string | number> {
  return Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, typeof v === 'string' ? v.replaceAll(SENTINEL, '') : v]));
}

function linksToSite(link: string, site: Pick<Site, 'domain'>): boolean {
  try {
    return new URL(link).hostname === site.domain.toLowerCase();
  } catch {
    return false;
  }
}

/** Renders one transactional mail, branded with the site, in the member's language (or its fallback). */
export function renderEmail(
  kind: MailKind,
  locale: string,
  site: Site,
  vars: Record<string, string | number>,
  extras: MailExtras = {},
): RenderedEmail {
  const link = typeof vars.link === 'string' ? vars.link : null;
  const hasButton = LINK_KINDS.has(kind);
  if (hasButton && (!link || !/^https?:\/\/[^\s]+$/i.test(link))) {
    throw new TypeError(`A ${kind} email needs an http(s) link in vars.link`);
  }
  // Links lead to the site's own domain, never to a host a request named (sites.service siteUrl builds them).
  if (link !== null && !linksToSite(link, site)) {
    throw new TypeError(`A ${kind} email of ${site.domain} may only link to ${site.domain}`);
  }
  const lang = mailLocale(kind, locale);
  const values: Record<string, string | number> = {
    name: '',
    ...clean(vars),
    site: site.name,
    supportEmail: site.supportEmail,
    company: site.company.name,
    address: site.company.address,
    city: site.company.city,
    country: countryName(site.company.country, lang),
  };
  const counted = vars[COUNTED_VAR[kind] ?? 'count'];
  if (typeof counted === 'number') values.count = counted;
  const t = (key: string) => textOf(lang, key, values);
  const h = (key: string, links?: Parameters<typeof htmlOf>[3]) => htmlOf(lang, key, values, links);
  const supportLink = (style: string) => ({ supportEmail: { href: `mailto:${site.supportEmail}`, style } });

  const items = (extras.items ?? []).map((item) => item.replaceAll(SENTINEL, ''));
  const { unsubscribe } = extras;
  for (const url of unsubscribe ? [unsubscribe.link, unsubscribe.preferences] : []) {
    if (!linksToSite(url, site)) throw new TypeError(`A ${kind} email of ${site.domain} may only link to ${site.domain}`);
  }
  // A written mail: the author's subject as its heading too, their text as its body, never read as markup.
  const written = WRITTEN_KINDS.has(kind);
  const writtenText = (name: 'subject' | 'body') => String(values[name] ?? '');
  const subject = written ? writtenText('subject') : t(`${kind}.subject`);
  const heading = written ? escapeHtml(subject) : h(`${kind}.heading`);
  const bodyParagraphs = paragraphsOf(written ? writtenText('body') : t(`${kind}.body`));
  const htmlBody = (written ? bodyParagraphs.map(escapeHtml) : paragraphsOf(h(`${kind}.body`))).map((p) => p.replace(/\n/g, '<br>'));
  const linkStyle = `color:${BRAND_COLOUR};text-decoration:underline;`;
  const mutedLinkStyle = 'color:#777777;text-decoration:underline;';

  const text = [
    site.name,
    '',
    written ? subject : t(`${kind}.heading`),
    '',
    t('common.greeting'),
    '',
    ...bodyParagraphs.flatMap((p) => [p, '']),
    ...(items.length > 0 ? [...items.map((item) => `- ${item}`), ''] : []),
    ...(hasButton && link ? [textOf(lang, 'common.buttonLink', { button: t(`${kind}.button`) }), link, ''] : []),
    t(`${kind}.ignore`),
    '',
    '--',
    t('common.footerReason'),
    t('common.footerCompany'),
    t('common.footerSupport'),
    ...(unsubscribe
      ? [textOf(lang, 'common.unsubscribeText', { ...values, unsubscribe: unsubscribe.link, preferences: unsubscribe.preferences })]
      : []),
    '',
  ].join('\n');

  const p = (content: string, style = '') => `<p style="margin:0 0 16px 0;${style}">${content}</p>`;
  const button =
    hasButton && link
      ? `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 24px 0;border-collapse:separate;">
<tr><td align="center" bgcolor="${BRAND_COLOUR}" style="border-radius:6px;background-color:${BRAND_COLOUR};">
<a href="${escapeHtml(link)}" style="display:inline-block;padding:14px 28px;font-family:${FONT};font-size:16px;font-weight:bold;line-height:20px;color:#ffffff;text-decoration:none;border-radius:6px;">${h(`${kind}.button`)}</a>
</td></tr>
</table>
${p(`${h('common.linkHint')}<br><a href="${escapeHtml(link)}" style="${linkStyle}word-break:break-all;">${escapeHtml(link)}</a>`, 'font-size:14px;line-height:20px;color:#555555;')}`
      : '';

  const html = `<!DOCTYPE html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(subject)}</title>
</head>
<body style="margin:0;padding:0;background-color:#f4f4f5;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f4f4f5;">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:600px;background-color:#ffffff;border-radius:8px;">
<tr><td style="padding:24px 32px;border-bottom:4px solid ${BRAND_COLOUR};font-family:${FONT};font-size:26px;line-height:32px;font-weight:bold;color:${BRAND_COLOUR};">${escapeHtml(site.name)}</td></tr>
<tr><td style="padding:32px;font-family:${FONT};font-size:16px;line-height:24px;color:#222222;">
<h1 style="margin:0 0 24px 0;font-family:${FONT};font-size:22px;line-height:30px;color:#222222;">${heading}</h1>
${p(h('common.greeting'))}
${htmlBody.map((para) => p(para)).join('\n')}
${items.length > 0 ? `<ul style="margin:0 0 16px 0;padding:0 0 0 20px;">${items.map((item) => `<li style="margin:0 0 6px 0;">${escapeHtml(item)}</li>`).join('')}</ul>` : ''}
${button}
${p(h(`${kind}.ignore`, supportLink(linkStyle)), 'margin:24px 0 0 0;font-size:14px;line-height:20px;color:#555555;')}
</td></tr>
<tr><td style="padding:24px 32px;border-top:1px solid #eeeeee;background-color:#fafafa;font-family:${FONT};font-size:12px;line-height:18px;color:#777777;border-radius:0 0 8px 8px;">
${p(h('common.footerReason'), 'margin:0 0 8px 0;')}
${p(h('common.footerCompany'), 'margin:0 0 8px 0;')}
${p(h('common.footerSupport', supportLink(mutedLinkStyle)), unsubscribe ? 'margin:0 0 8px 0;' : 'margin:0;')}
${
  unsubscribe
    ? p(
        htmlOf(
          lang,
          'common.unsubscribeHtml',
          {
            ...values,
            unsubscribeLabel: textOf(lang, 'common.unsubscribeLabel', values),
            preferencesLabel: textOf(lang, 'common.preferencesLabel', values),
          },
          {
            unsubscribeLabel: { href: unsubscribe.link, style: mutedLinkStyle },
            preferencesLabel: { href: unsubscribe.preferences, style: mutedLinkStyle },
          },
        ),
        'margin:0;',
      )
    : ''
}
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
  return { subject, html, text };
}
