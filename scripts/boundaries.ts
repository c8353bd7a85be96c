// The boundaries of docs/ARCHITECTURE.md: the rules of .dependency-cruiser.cjs over the sources of the apps
// and packages, and the owner of each table (scripts/table-owners.ts). Any violation fails: there is no list of
// known ones. `npm run lint` runs this after biome; scripts/boundaries.test.ts runs it in `npm test`.
//   tsx scripts/boundaries.ts             check (exit 1 on a violation)
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { checkTableOwners } from './table-owners';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SOURCES = ['apps/server/src', 'apps/web/src', 'packages/contracts/src', 'packages/db/src', 'packages/i18n/src'];

export interface Boundaries {
  /** What breaks a rule: each fails the lint. */
  violations: IViolation[];
  modules: number;
}

/** Cruises `sources` (relative to `baseDir`, which has a tsconfig.json for the @/ alias) with this repository's rules. */
export async function checkBoundaries({
  baseDir = ROOT,
  sources = SOURCES,
}: {
  baseDir?: string;
  sources?: string[];
} = {}): Promise<Boundaries> {
  const options = await extractDepcruiseOptions(join(ROOT, '.dependency-cruiser.cjs'));
  const { output } = await cruise(sources, { ...options, baseDir, tsConfig: { fileName: join(baseDir, 'tsconfig.json') } });
  const { summary } = output as ICruiseResult;
  return {
    violations: summary.violations.filter((v) => v.rule.severity !== 'info' && v.rule.severity !== 'ignore'),
    modules: summary.totalCruised,
  };
}

export function describeViolation(violation: IViolation): string {
  const cycle = violation.cycle ? ` (cycle: ${[violation.from, ...violation.cycle.map((step) => step.name)].join(' → ')})` : '';
  return `${violation.rule.name}: ${violation.from} → ${violation.to}${cycle}`;
}

async function main() {
  const { violations, modules } = await checkBoundaries();
  for (const violation of violations) console.error(`  error ${describeViolation(violation)}`);
  const owners = checkTableOwners({ baseDir: ROOT });
  for (const problem of owners) console.error(`  error ${problem}`);
  console.log(`boundaries: ${modules} modules, ${violations.length} violations; table owners: ${owners.length} violations`);
  if (violations.length + owners.length > 0) process.exitCode = 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
