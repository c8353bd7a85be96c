// The boundaries of docs/ARCHITECTURE.md, checked by `npm run lint` (biome, then dependency-cruiser) and by
// scripts/boundaries.test.ts in `npm test`. There is no list of known violations: any violation fails.
// Test files are not cruised: a test may assemble whatever it tests; the rules are about the shipped code.

const web = '^apps/web/src/';
const modules = '^apps/server/src/modules/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'packages-not-to-apps',
      comment: 'Packages are shared by the apps; they never import an app.',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^apps/|^@amora/(server|web)(/|$)' },
    },
    {
      name: 'db-only-in-repositories',
      comment:
        'Only repositories touch the database package (and what opens the database: bootstrap, main, the console:admin command, seed, the test harness). ' +
        'A type-only import (the Database executor type, a row type) runs no query and is allowed anywhere.',
      severity: 'error',
      from: {
        path: '^apps/server/src/',
        pathNot: ['\\.repository\\.ts$', '^apps/server/src/(seed|test)/', '^apps/server/src/(bootstrap|main|console-admin)\\.ts$'],
      },
      to: { path: '^packages/db/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'server-modules-through-services',
      comment:
        'A server module reaches another one only through its service (x/x.service.ts), or its presenter (x/x.presenter.ts: ' +
        'the shapes of one response part, like the profile card, shared so they cannot drift). Types too: a type another module ' +
        'needs is exported by the service.',
      severity: 'error',
      from: { path: `${modules}([^/]+)/` },
      to: {
        path: modules,
        pathNot: [`${modules}$1/`, `${modules}([^/]+)/\\1\\.(service|presenter)\\.ts$`],
      },
    },
    {
      name: 'plugins-only-in-routes',
      comment:
        'The HTTP plugins (plugins/: the request gate, auth, web, …) are used by the routes: services, repositories, ' +
        'presenters and lib/ do not import them, types included. What a service is given of the request lives with ' +
        'its owner: the member of a session (Auth) in the sessions service, the types of a served page in lib/served-page.ts.',
      severity: 'error',
      from: { path: ['^apps/server/src/modules/', '^apps/server/src/lib/'], pathNot: '\\.routes\\.ts$' },
      to: { path: '^apps/server/src/plugins/' },
    },
    {
      name: 'server-modules-no-cycles',
      comment: 'Modules depend on each other one way: no module reaches itself again through others.',
      severity: 'error',
      scope: 'folder',
      from: { path: `${modules}[^/]+$` },
      to: { path: `${modules}[^/]+$`, circular: true },
    },
    {
      name: 'web-features-isolated',
      comment:
        'A web feature does not import another one: pages in app/ compose features; what several features need is in the shared layer.',
      severity: 'error',
      from: { path: `${web}features/([^/]+)/` },
      to: { path: `${web}features/`, pathNot: `${web}features/$1/` },
    },
    {
      name: 'web-features-not-app',
      comment: 'Imports go shared → features → app: a feature does not import app/.',
      severity: 'error',
      from: { path: `${web}features/` },
      to: { path: `${web}app/` },
    },
    {
      name: 'web-shared-not-features-or-app',
      comment: 'The shared layer (components/, lib/, shared/) imports neither features nor app/.',
      severity: 'error',
      from: { path: `${web}(components|lib|shared)/` },
      to: { path: `${web}(features|app)/` },
    },
    {
      name: 'web-not-server',
      comment: 'The browser app imports neither server code nor the database package.',
      severity: 'error',
      from: { path: '^apps/web/' },
      to: { path: '^apps/server/|^packages/db/|^@amora/(server|db)(/|$)' },
    },
    {
      name: 'no-circular',
      comment: 'No file reaches itself again through its imports.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-unresolvable',
      comment: 'Every import resolves (so that no rule is passed by an import it cannot follow).',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // TypeScript 7 is native and has no compiler API (dependency-cruiser's tsc parser wants typescript < 7), so swc
    // parses .ts/.tsx as written: type-only imports are seen, and marked type-only.
    parser: 'swc',
    // The @/ alias of the web app (apps/web/vite.config.ts), from the root tsconfig's `paths`.
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: ['(^|/)node_modules/', '(^|/)dist/', '\\.test\\.tsx?$'] },
    doNotFollow: { path: '(^|/)node_modules/' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
      mainFields: ['module', 'main', 'types'],
    },
  },
};
