import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Boundaries, checkBoundaries, describeViolation, ROOT } from './boundaries';
import { checkTableOwners, moduleOf, writesIn } from './table-owners';

/** The rules of .dependency-cruiser.cjs on planted files: what each forbids, and what each lets through. */
describe('the boundaries lint', () => {
  let dir: string;
  let result: Boundaries;
  const found = () => result.violations.map(describeViolation).sort();

  const plant = (files: Record<string, string>) => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'amora-boundaries-'));
    plant({
      'tsconfig.json': JSON.stringify({ compilerOptions: { paths: { '@/*': ['./apps/web/src/*'] } } }),
      // web: a feature importing another (through the @/ alias), the shared layer importing a feature,
      // a feature importing server code; app/ composing two features is fine.
      'apps/web/src/features/likes/like-button.tsx': 'export const LikeButton = () => null;\n',
      'apps/web/src/features/profiles/member-page.tsx':
        "import { LikeButton } from '@/features/likes/like-button';\nexport const page = LikeButton;\n",
      'apps/web/src/shared/session/user.ts':
        "import { LikeButton } from '../../features/likes/like-button';\nexport const user = LikeButton;\n",
      'apps/web/src/features/home/index-page.tsx': "import { app } from '../../../../server/src/app';\nexport const page = app;\n",
      'apps/web/src/app/pages/member-page.tsx':
        "import { LikeButton } from '@/features/likes/like-button';\nimport { page } from '@/features/profiles/member-page';\nexport const composed = [LikeButton, page];\n",
      // packages never import apps
      'packages/contracts/src/index.ts': "import { app } from '../../../apps/server/src/app';\nexport const contracts = app;\n",
      'apps/server/src/app.ts': 'export const app = 1;\n',
      // the database package: a repository may use it, a service may not (a type-only import is fine)
      'packages/db/src/index.ts': 'export const users = 1;\nexport type Database = { users: number };\n',
      'apps/server/src/modules/b/b.repository.ts':
        "import { users } from '../../../../../packages/db/src/index';\nexport const findB = () => users;\n",
      'apps/server/src/modules/b/b.service.ts':
        "import { users } from '../../../../../packages/db/src/index';\nimport { findB } from './b.repository';\nexport const b = () => findB() + users;\n",
      'apps/server/src/modules/b/b.presenter.ts': "import { card } from '../a/a.presenter';\nexport const presentB = card;\n",
      // modules: a service and a presenter of another module are fine, its repository is not; a and b now
      // depend on each other (b's presenter uses a's), a cycle between modules
      'apps/server/src/modules/a/a.service.ts':
        "import type { Database } from '../../../../../packages/db/src/index';\nimport { b } from '../b/b.service';\nimport { findB } from '../b/b.repository';\nimport { presentB } from '../b/b.presenter';\nexport const a = (db: Database) => [db, b, findB, presentB];\n",
      'apps/server/src/modules/a/a.presenter.ts': 'export const card = 1;\n',
      // plugins: a route may use them; a service may not, not even for a type
      'apps/server/src/plugins/auth.ts': 'export type Auth = { id: number };\nexport const requireAuth = () => 1;\n',
      'apps/server/src/modules/c/c.routes.ts': "import { requireAuth } from '../../plugins/auth';\nexport const routes = requireAuth;\n",
      'apps/server/src/modules/c/c.service.ts': "import type { Auth } from '../../plugins/auth';\nexport const c = (auth: Auth) => auth;\n",
    });
    result = await checkBoundaries({
      baseDir: dir,
      sources: ['apps/server/src', 'apps/web/src', 'packages/contracts/src', 'packages/db/src'],
    });
  }, 60_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fails on a web feature importing another, the shared layer importing a feature and the web importing the server', () => {
    expect(found()).toEqual(
      expect.arrayContaining([
        'web-features-isolated: apps/web/src/features/profiles/member-page.tsx → apps/web/src/features/likes/like-button.tsx',
        'web-shared-not-features-or-app: apps/web/src/shared/session/user.ts → apps/web/src/features/likes/like-button.tsx',
        'web-not-server: apps/web/src/features/home/index-page.tsx → apps/server/src/app.ts',
      ]),
    );
  });

  it('fails on a package importing an app', () => {
    expect(found()).toContain('packages-not-to-apps: packages/contracts/src/index.ts → apps/server/src/app.ts');
  });

  it("fails on a module reaching into another's repository, and on modules depending on each other", () => {
    expect(found()).toEqual(
      expect.arrayContaining([
        'server-modules-through-services: apps/server/src/modules/a/a.service.ts → apps/server/src/modules/b/b.repository.ts',
        expect.stringMatching(/^server-modules-no-cycles: apps\/server\/src\/modules\/(a|b) → /),
      ]),
    );
  });

  it('fails on a service using the database package, and on a service importing a plugin (a type too)', () => {
    expect(found()).toEqual(
      expect.arrayContaining([
        'db-only-in-repositories: apps/server/src/modules/b/b.service.ts → packages/db/src/index.ts',
        'plugins-only-in-routes: apps/server/src/modules/c/c.service.ts → apps/server/src/plugins/auth.ts',
      ]),
    );
  });

  it('lets through app/ composing features, services and presenters of other modules, type-only imports of the database package and routes using plugins', () => {
    expect(found().filter((v) => !v.startsWith('server-modules-no-cycles:'))).toEqual(
      [
        'db-only-in-repositories: apps/server/src/modules/b/b.service.ts → packages/db/src/index.ts',
        'packages-not-to-apps: packages/contracts/src/index.ts → apps/server/src/app.ts',
        'plugins-only-in-routes: apps/server/src/modules/c/c.service.ts → apps/server/src/plugins/auth.ts',
        'server-modules-through-services: apps/server/src/modules/a/a.service.ts → apps/server/src/modules/b/b.repository.ts',
        'web-features-isolated: apps/web/src/features/profiles/member-page.tsx → apps/web/src/features/likes/like-button.tsx',
        'web-not-server: apps/web/src/features/home/index-page.tsx → apps/server/src/app.ts',
        'web-shared-not-features-or-app: apps/web/src/shared/session/user.ts → apps/web/src/features/likes/like-button.tsx',
      ].sort(),
    );
  });
});

describe('the table owners', () => {
  const tables = new Set(['users', 'likes']);

  it('finds the writes of table objects from @amora/db: drizzle calls and SQL, aliases too, not reads', () => {
    const source = [
      "import { likes as l, users, type Executor } from '@amora/db';",
      'await db.insert(users).values(x);',
      'await db.select().from(l).where(eq(l.id, 1));',
      `await db.execute(sql\`delete from \${l} where id = 1\`);`,
    ].join('\n');
    expect(writesIn(source, tables).sort()).toEqual(['likes', 'users']);
    expect(writesIn("import { users } from '@amora/db';\nawait db.select().from(users);", tables)).toEqual([]);
    expect(writesIn('await db.update(users).set({});', tables)).toEqual([]);
  });

  it('names the module of a server file: a folder of modules/, a file of lib/', () => {
    expect(moduleOf('apps/server/src/modules/likes/likes.repository.ts')).toBe('likes');
    expect(moduleOf('apps/server/src/lib/jobs.repository.ts')).toBe('lib/jobs');
    expect(moduleOf('apps/server/src/seed/demo-profiles.ts')).toBeNull();
  });

  it('fails on a write from a module that does not own the table, a table without an owner and an owner of no table', () => {
    const dir = mkdtempSync(join(tmpdir(), 'amora-owners-'));
    try {
      const plant = (path: string, text: string) => {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      };
      plant('apps/server/src/modules/a/a.repository.ts', "import { users } from '@amora/db';\nawait db.update(users).set({});\n");
      plant('apps/server/src/modules/b/b.repository.ts', "import { users } from '@amora/db';\nawait db.delete(users);\n");
      plant('apps/server/src/seed/demo.ts', "import { users } from '@amora/db';\nawait db.insert(users).values({});\n");
      expect(checkTableOwners({ baseDir: dir, tables: ['users', 'likes'], owners: { users: 'a', gone: 'a' } })).toEqual([
        'table-owner: apps/server/src/modules/b/b.repository.ts writes users, which a owns',
        'table-owner: gone is not a table of the schema',
        'table-owner: likes has no owner (scripts/table-owners.ts)',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('this repository', () => {
  it('has one owner for each table, and no module writes a table of another', () => {
    expect(checkTableOwners({ baseDir: ROOT })).toEqual([]);
  });

  it('keeps its boundaries: no violation at all', async () => {
    const { violations } = await checkBoundaries();
    expect(violations.map(describeViolation)).toEqual([]);
  }, 120_000);
});
