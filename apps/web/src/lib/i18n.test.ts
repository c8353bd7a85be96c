import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { type Catalogue, loadCatalogue, type Namespace } from '@amora/i18n';
import { describe, expect, it } from 'vitest';

/**
 * Every catalogue key the web app asks for exists in the English catalogue of its namespace. i18next shows a
 * missing key as the key itself ("members.age"), in every language, so this reads the source rather than
 * waiting for someone to see it on a page.
 */

const root = join(import.meta.dirname, '..', '..', '..', '..');
const webSource = join(root, 'apps', 'web', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Every key of a catalogue, leaves and the objects some pages read whole (`returnObjects`), plural forms also as their base key. */
function catalogueKeys(catalogue: Catalogue, prefix = ''): string[] {
  return Object.entries(catalogue).flatMap(([name, value]) => {
    const key = prefix + name;
    const base = key.replace(/_(zero|one|two|few|many|other)$/, '');
    const own = base === key ? [key] : [key, base];
    return typeof value === 'string' ? own : [...own, ...catalogueKeys(value, `${key}.`)];
  });
}

const keysOf = Object.fromEntries(
  (['common', 'pages', 'payments', 'console', 'landers'] as const).map((ns) => [ns, new Set(catalogueKeys(loadCatalogue('en', ns)))]),
) as Record<'common' | 'pages' | 'payments' | 'console' | 'landers', Set<string>>;
const commonSections = Object.keys(loadCatalogue('en', 'common'));

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface Use {
  file: string;
  key: string;
  namespaces: Namespace[];
}

/** The namespaces a file's `t` can come from: those named in `useTranslation('…')` or `useTranslation(['…', …])`, else the default. */
function namespacesOf(text: string): ('common' | 'pages' | 'payments' | 'console' | 'landers')[] {
  const one = [...text.matchAll(/useTranslation\(\s*['"](\w+)['"]/g)].map((m) => m[1]);
  const lists = [...text.matchAll(/useTranslation\(\s*\[([^\]]*)\]/g)].flatMap((m) =>
    [...m[1].matchAll(/['"](\w+)['"]/g)].map((n) => n[1]),
  );
  const named = [...one, ...lists] as ('common' | 'pages' | 'payments' | 'console' | 'landers')[];
  const isDefaultToo = /useTranslation\(\s*\)/.test(text) || named.length === 0;
  return [...new Set([...named, ...(isDefaultToo ? (['common'] as const) : [])])];
}

/** `t('a.b')`, `t("a.b")` and `t(`a.${x}.c`)` calls; keys built elsewhere are passed as variables and not seen here. */
function tCalls(file: string, text: string): Use[] {
  const namespaces = namespacesOf(text);
  return [...text.matchAll(/\bt\(\s*(?:'([^'\n]+)'|"([^"\n]+)"|`([^`\n]+)`)/g)].map((m) => {
    const raw = m[1] ?? m[2] ?? m[3];
    const [ns, key] = raw.includes(':') ? (raw.split(':', 2) as [Namespace, string]) : [null, raw];
    return { file, key, namespaces: ns ? [ns] : namespaces };
  });
}

/** Keys written as plain strings for a later `t(key)` (footer links, form messages): 'section.rest' of a common section. */
function keyLiterals(file: string, text: string): Use[] {
  const withoutImports = text.replace(/^\s*(import|export)\b[^;]*?from\s+['"][^'"]+['"];?|^\s*import\s+['"][^'"]+['"];?/gm, '');
  const sections = commonSections.join('|');
  const pattern = new RegExp(`['"\`]((?:${sections})\\.[A-Za-z][\\w]*(?:\\.[\\w]+)*)['"\`]`, 'g');
  // A file that reads another namespace too (payments has sections named like common's) may mean either.
  const namespaces: Namespace[] = [...new Set<Namespace>(['common', ...namespacesOf(text)])];
  return [...withoutImports.matchAll(pattern)].map((m) => ({ file, key: m[1], namespaces }));
}

function exists({ key, namespaces }: Use): boolean {
  return namespaces.some((ns) => {
    const keys = keysOf[ns as 'common' | 'pages' | 'payments' | 'console' | 'landers'];
    if (!keys) return false;
    if (!key.includes('${')) return keys.has(key);
    // A key built from a value: at least one key of the catalogue must fit its shape.
    const shape = new RegExp(
      `^${key
        .split(/\$\{[^}]*\}/)
        .map(escapeRegExp)
        .join('.+')}$`,
    );
    return [...keys].some((k) => shape.test(k));
  });
}

describe('catalogue keys used by the web app', () => {
  const files = sourceFiles(webSource);
  // The contracts' error texts ('auth.errors.invalidEmail') and the server's `message_key`s reach the app's
  // `t(message)` too; only keys of three parts or more there, since names like the cookie 'auth.session' look alike.
  const contracts = sourceFiles(join(root, 'packages', 'contracts', 'src'));
  const server = sourceFiles(join(root, 'apps', 'server', 'src'));
  const isDeep = (use: Use) => use.key.split('.').length >= 3;
  const uses = [
    ...files.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return [...tCalls(file, text), ...keyLiterals(file, text)];
    }),
    ...contracts.flatMap((file) => keyLiterals(file, readFileSync(file, 'utf8')).filter(isDeep)),
    ...server.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/message_key:\s*'([\w.]+)'/g)].map((m): Use => ({ file, key: m[1], namespaces: ['common'] })),
    ),
  ];

  it('finds the calls it checks', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(uses.length).toBeGreaterThan(300);
  });

  it('all exist in the English catalogue of their namespace', () => {
    const missing = uses.filter((use) => !exists(use)).map((use) => `${relative(root, use.file)}: ${use.key}`);
    expect([...new Set(missing)]).toEqual([]);
  });
});
