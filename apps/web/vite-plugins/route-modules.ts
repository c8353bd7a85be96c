import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { type Plugin, parseAst } from 'vite';

/** Where the map goes in the build, beside Vite's manifest (apps/server/src/plugins/page-preloads.ts reads it). */
const ROUTE_MODULES_FILE = '.vite/route-modules.json';

type Node = { type: string; [key: string]: unknown };
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';

function* nodesIn(node: unknown): Generator<Node> {
  if (Array.isArray(node)) {
    for (const item of node) yield* nodesIn(item);
    return;
  }
  if (!isNode(node)) return;
  yield node;
  for (const [key, value] of Object.entries(node)) if (key !== 'type' && typeof value === 'object') yield* nodesIn(value);
}

const propertyOf = (object: Node, name: string): Node | undefined =>
  (object.properties as Node[]).find((p) => p.type === 'Property' && isNode(p.key) && (p.key.name === name || p.key.value === name))
    ?.value as Node | undefined;

/** The first `import('…')` specifier under `node`. */
function importIn(node: unknown): string | undefined {
  for (const n of nodesIn(node)) {
    if (n.type === 'ImportExpression' && isNode(n.source) && typeof n.source.value === 'string') return n.source.value;
  }
  return undefined;
}

/**
 * The lazy page module of each named route of a route table's source (app/routes.tsx): every object with
 * `handle: handle('<name>', …)` (or `handle: { name: '<name>' }`) and a `lazy` whose function imports the module,
 * inline or through a function of the same file (`lazy: loginPage`, `lazy: () => authPage('…')`).
 */
export function routeModulesOf(source: string): Record<string, string> {
  const ast = parseAst(source, { lang: 'tsx' });
  // Functions of the file by name: a `lazy` may name one, or call one.
  const functions = new Map<string, Node>();
  for (const n of nodesIn(ast)) {
    if (n.type === 'VariableDeclarator' && isNode(n.id) && typeof n.id.name === 'string' && isNode(n.init))
      functions.set(n.id.name, n.init);
    if (n.type === 'FunctionDeclaration' && isNode(n.id) && typeof n.id.name === 'string') functions.set(n.id.name, n);
  }
  const specifierOf = (lazy: Node): string | undefined => {
    const direct = importIn(lazy);
    if (direct) return direct;
    for (const n of [lazy, ...nodesIn(lazy)]) {
      const name = n.type === 'Identifier' ? n.name : n.type === 'CallExpression' && isNode(n.callee) ? n.callee.name : undefined;
      const fn = typeof name === 'string' ? functions.get(name) : undefined;
      if (fn) return importIn(fn);
    }
    return undefined;
  };
  const modules: Record<string, string> = {};
  for (const n of nodesIn(ast)) {
    if (n.type !== 'ObjectExpression') continue;
    const handle = propertyOf(n, 'handle');
    const lazy = propertyOf(n, 'lazy');
    if (!handle || !lazy) continue;
    const nameNode =
      handle.type === 'CallExpression'
        ? (handle.arguments as Node[])[0]
        : handle.type === 'ObjectExpression'
          ? propertyOf(handle, 'name')
          : undefined;
    const specifier = specifierOf(lazy);
    if (nameNode?.type === 'Literal' && typeof nameNode.value === 'string' && specifier) modules[nameNode.value] = specifier;
  }
  return modules;
}

/**
 * The route table's page modules as paths from the app's root (`src/features/members/members-page.tsx`), as Vite's
 * manifest names a chunk's `src`; `@/` is `src/`.
 */
export async function routeModuleSources(root: string, routes = 'src/app/routes.tsx'): Promise<Record<string, string>> {
  const file = resolve(root, routes);
  const map: Record<string, string> = {};
  for (const [name, specifier] of Object.entries(routeModulesOf(await readFile(file, 'utf8')))) {
    const base = specifier.startsWith('@/') ? resolve(root, 'src', specifier.slice(2)) : resolve(dirname(file), specifier);
    const found = ['', '.tsx', '.ts', '/index.tsx', '/index.ts']
      .map((ext) => base + ext)
      .find((path) => existsSync(path) && /\.tsx?$/.test(path));
    if (found) map[name] = relative(root, found).split('\\').join('/');
  }
  return map;
}

/**
 * Writes the map route name → page module into the build (ROUTE_MODULES_FILE), from the route table itself: the
 * server preloads each page's chunk with its HTML (apps/server/src/plugins/page-preloads.ts), and a new route is
 * preloaded without a list to keep by hand.
 */
export function routeModules(): Plugin {
  let root = process.cwd();
  let outDir = 'dist';
  return {
    name: 'amora:route-modules',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = resolve(config.root, config.build.outDir);
    },
    async writeBundle() {
      await mkdir(join(outDir, '.vite'), { recursive: true });
      await writeFile(join(outDir, ROUTE_MODULES_FILE), `${JSON.stringify(await routeModuleSources(root), null, 2)}\n`);
    },
  };
}
