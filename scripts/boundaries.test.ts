import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Boundaries, checkBoundaries, describeViolation } from './boundaries';

/** The rules of .dependency-cruiser.cjs on planted files: what each forbids, and what each lets through. */
describe('the boundaries lint', () => {
  let dir: string;
  let result: Boundaries;
  const fresh = () => result.fresh.map(describeViolation).sort();

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
    });
    result = await checkBoundaries({
      baseDir: dir,
      sources: ['apps/server/src', 'apps/web/src', 'packages/contracts/src', 'packages/db/src'],
      // one known violation: it passes, the others fail
      knownViolations: [
        {
          from: 'apps/server/src/modules/b/b.service.ts',
          to: 'packages/db/src/index.ts',
          rule: { name: 'db-only-in-repositories', severity: 'error' },
        },
      ],
    });
  }, 60_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fails on a web feature importing another, the shared layer importing a feature and the web importing the server', () => {
    expect(fresh()).toEqual(
      expect.arrayContaining([
        'web-features-isolated: apps/web/src/features/profiles/member-page.tsx → apps/web/src/features/likes/like-button.tsx',
        'web-shared-not-features-or-app: apps/web/src/shared/session/user.ts → apps/web/src/features/likes/like-button.tsx',
        'web-not-server: apps/web/src/features/home/index-page.tsx → apps/server/src/app.ts',
      ]),
    );
  });

  it('fails on a package importing an app', () => {
    expect(fresh()).toContain('packages-not-to-apps: packages/contracts/src/index.ts → apps/server/src/app.ts');
  });

  it("fails on a module reaching into another's repository, and on modules depending on each other", () => {
    expect(fresh()).toEqual(
      expect.arrayContaining([
        'server-modules-through-services: apps/server/src/modules/a/a.service.ts → apps/server/src/modules/b/b.repository.ts',
        expect.stringMatching(/^server-modules-no-cycles: apps\/server\/src\/modules\/(a|b) → /),
      ]),
    );
  });

  it('lets through app/ composing features, services and presenters of other modules, type-only imports of the database package and the known violations', () => {
    expect(fresh().filter((v) => !v.startsWith('server-modules-no-cycles:'))).toEqual(
      [
        'packages-not-to-apps: packages/contracts/src/index.ts → apps/server/src/app.ts',
        'server-modules-through-services: apps/server/src/modules/a/a.service.ts → apps/server/src/modules/b/b.repository.ts',
        'web-features-isolated: apps/web/src/features/profiles/member-page.tsx → apps/web/src/features/likes/like-button.tsx',
        'web-not-server: apps/web/src/features/home/index-page.tsx → apps/server/src/app.ts',
        'web-shared-not-features-or-app: apps/web/src/shared/session/user.ts → apps/web/src/features/likes/like-button.tsx',
      ].sort(),
    );
    expect(result.known.map(describeViolation)).toEqual([
      'db-only-in-repositories: apps/server/src/modules/b/b.service.ts → packages/db/src/index.ts',
    ]);
  });
});

describe('this repository', () => {
  it('keeps its boundaries: no violation beyond .dependency-cruiser-known-violations.json', async () => {
    const { fresh } = await checkBoundaries();
    expect(fresh.map(describeViolation)).toEqual([]);
  }, 120_000);
});
