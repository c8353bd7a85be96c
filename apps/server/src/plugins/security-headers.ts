import helmet, { type HelmetOptions } from 'helmet';

/**
 * Security headers (CSP and the rest) from helmet. Our headers carry no per-request nonce, so helmet runs
 * once at start-up against a recording response and every reply gets the recorded set.
 */
function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as never, recorder as never, () => {});
  return headers;
}

/** Headers of pages and static files: the full helmet set with the web app's CSP. */
function documentHeaders(isProduction: boolean, isConsole = false): Record<string, string> {
  return securityHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: isProduction ? [] : null,
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: isProduction ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    // helmet's defaults for the member pages; the console's pages are never framed, not even by this site.
    xFrameOptions: { action: isConsole ? 'deny' : 'sameorigin' },
    referrerPolicy: { policy: 'no-referrer' },
  });
}

/**
 * The operator console's pages (/console): the document set, never framed (X-Frame-Options DENY besides CSP
 * frame-ancestors) and no referrer at all, so no address of the console reaches another site.
 */
function consoleDocumentHeaders(isProduction: boolean): Record<string, string> {
  return documentHeaders(isProduction, true);
}

/** The console's pages: /console and every path under it. */
export function isConsolePage(path: string): boolean {
  return path === '/console' || path.startsWith('/console/');
}

/**
 * Headers of API answers (JSON, photos, redirects). A browser never renders them as a document, so the
 * document-only headers (script and style sources, referrer policy, XSS auditor, DNS prefetch, download
 * options) do nothing there, and every browser the web app runs in honours CSP frame-ancestors, which
 * X-Frame-Options only repeats for older ones. What an answer needs: never sniffed as another type, never
 * framed. Another site cannot read JSON it loads without CORS either: with nosniff, the browser's
 * opaque-response blocking drops it. Images are the exception (ORB lets them through), so photo answers add
 * `PHOTO_HEADERS`. HSTS comes with the documents: the API is called by this site's own pages, which reached
 * the browser over HTTPS with it, and a browser keeps it per host for a year from the last page.
 */
function apiHeaders(): Record<string, string> {
  return {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
  };
}

/** Member photos may be shown by this site's pages only: no other site may embed them. */
export const PHOTO_HEADERS = { 'cross-origin-resource-policy': 'same-origin' } as const;

/** The OpenAPI viewer is a document under /api/; it sends its own CSP on top of the document set. */
const API_DOCUMENTS = '/api/docs';

function isApiPath(url: string): boolean {
  return url.startsWith('/api/') && !url.startsWith(API_DOCUMENTS);
}

/** The header set of a request's answer, chosen by its path. */
export function securityHeadersFor(isProduction: boolean): (url: string) => Record<string, string> {
  const forDocuments = documentHeaders(isProduction);
  const forConsole = consoleDocumentHeaders(isProduction);
  const forApi = apiHeaders();
  return (url) => (isApiPath(url) ? forApi : isConsolePage(url) ? forConsole : forDocuments);
}
