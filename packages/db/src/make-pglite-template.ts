// Run by `npm run build` (scripts/build-server.mjs, bundled): makes the template of a new PGlite database in
// the given folder unless this PGlite version's is there already, and removes other versions' templates.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { makePgliteTemplate, pgliteTemplateDir } from './client';

const dir = process.argv[2];
if (!dir) throw new Error('usage: make-pglite-template <folder>');
const template = pgliteTemplateDir(dir);
if (!existsSync(join(template, 'PG_VERSION'))) await makePgliteTemplate(template);
for (const name of readdirSync(dir)) {
  if (/^pglite-.*-template(\.tmp)?$/.test(name) && name !== basename(template)) rmSync(join(dir, name), { recursive: true, force: true });
}
