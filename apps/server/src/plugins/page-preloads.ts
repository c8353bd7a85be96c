import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { routeNameOf } from './page-routes';

// What a served page preloads with its HTML, from the web build's manifest and its route → page module map.

/** The web app's code behind its small entry script (main.tsx imports it after the first paint). */
const APP_SOURCE = 'src/app/start.tsx';

/**
 * What only a member's pages show (apps/web/src/app/shell/member-shell.tsx: the members' navigation, banners, chat
 * and likes in the background): a chunk of its own, which a visitor's page does not load and a member's page
 * preloads; the app's boot waits for it on a member's page.
 */
export const MEMBER_SHELL_SOURCE = 'src/app/shell/member-shell.tsx';

/**
 * The web build's map of route name → lazy page module (`src/features/members/members-page.tsx`), written from the
 * route table by apps/web/vite-plugins/route-modules.ts: every page's chunk is preloaded with its HTML instead of
 * being asked for after the entry script ran.
 */
export const ROUTE_MODULES_FILE = join('.vite', 'route-modules.json');

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
  assets?: string[];
}

/**
 * The preload links of a page, from the build's manifest (apps/web/dist/.vite/manifest.json): the text font's
 * file (the Latin subset, which every language of ours needs first), on a member's page the member parts of the
 * shell (MEMBER_SHELL_SOURCE) and the page's chunk (ROUTE_MODULES_FILE) with the chunks it imports that the
 * entry does not already load. No manifest, no links.
 */
export function routePreloads(dist: string): (path: string, member?: boolean) => string {
  const manifestPath = join(dist, '.vite', 'manifest.json');
  if (!existsSync(manifestPath)) return () => '';
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
  // The app's entry (index.html); the landers' page (lander.html) is an entry of its own (plugins/lander-pages.ts).
  const entry = manifest['index.html'] ?? Object.values(manifest).find((chunk) => chunk.isEntry);
  const loaded = new Set<string>();
  const walk = (key: string, into: Set<string>) => {
    const chunk = manifest[key];
    if (!chunk || into.has(chunk.file)) return;
    into.add(chunk.file);
    for (const imported of chunk.imports ?? []) walk(imported, into);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk === entry) walk(key, loaded);
  const fonts = [...new Set(Object.values(manifest).flatMap((chunk) => chunk.assets ?? []))].filter((file) =>
    /-latin-(?!ext)[^/]*\.woff2$/.test(file),
  );
  // The app itself (apps/web/src/app/start.tsx), which the small entry imports: fetched with the page, its styles
  // before the first paint, as if the entry imported it.
  const appKey = Object.keys(manifest).find((k) => manifest[k].src === APP_SOURCE);
  const appFiles = new Set<string>();
  if (appKey) walk(appKey, appFiles);
  const entryCss = new Set(entry?.css ?? []);
  const appCss = new Set<string>();
  for (const key of Object.keys(manifest))
    if (appFiles.has(manifest[key].file)) for (const css of manifest[key].css ?? []) if (!entryCss.has(css)) appCss.add(css);
  const appLinks = [...appCss]
    .map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`)
    .concat([...appFiles].filter((file) => !loaded.has(file)).map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`))
    .join('');
  for (const file of appFiles) loaded.add(file);
  const fontLinks = appLinks + fonts.map((file) => `<link rel="preload" href="/${file}" as="font" type="font/woff2" crossorigin>`).join('');
  const loadedCss = new Set([...entryCss, ...appCss]);
  /** A lazy module's chunk, the chunks it imports and its styles, less what every page already loads. */
  const linksOf = (source: string, except: Set<string> = new Set()) => {
    const key = Object.keys(manifest).find((k) => manifest[k].src === source);
    if (!key) return null;
    const files = new Set<string>();
    walk(key, files);
    return [...files]
      .filter((file) => !loaded.has(file) && !except.has(file))
      .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
      .concat(
        (manifest[key].css ?? [])
          .filter((file) => !loadedCss.has(file))
          .map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`),
      )
      .join('');
  };
  const memberFiles = new Set<string>();
  const memberKey = Object.keys(manifest).find((k) => manifest[k].src === MEMBER_SHELL_SOURCE);
  if (memberKey) walk(memberKey, memberFiles);
  const memberLinks = linksOf(MEMBER_SHELL_SOURCE) ?? '';
  const routeModulesPath = join(dist, ROUTE_MODULES_FILE);
  const routeModules = existsSync(routeModulesPath) ? (JSON.parse(readFileSync(routeModulesPath, 'utf8')) as Record<string, string>) : {};
  const byRoute = new Map(
    Object.entries(routeModules).flatMap(([name, source]) => {
      const links = linksOf(source);
      // On a member's page the member parts' chunks are linked already.
      const memberPageLinks = linksOf(source, memberFiles);
      return links === null || memberPageLinks === null ? [] : [[name, { links, memberPageLinks }] as const];
    }),
  );
  return (path, member = false) => {
    const name = routeNameOf(path);
    const route = name ? byRoute.get(name) : undefined;
    if (!member) return fontLinks + (route?.links ?? '');
    return fontLinks + memberLinks + (route?.memberPageLinks ?? '');
  };
}
