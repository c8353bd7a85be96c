// The boundaries of docs/ARCHITECTURE.md: the rules of .dependency-cruiser.cjs over the sources of the apps
// and packages. A violation listed in .dependency-cruiser-known-violations.json (what was there when its
// rule came) passes, any other fails. `npm run lint` runs this after biome; scripts/boundaries.test.ts runs
// it in `npm test`.
//   tsx scripts/boundaries.ts             check (exit 1 on a violation the list does not have)
//   tsx scripts/boundaries.ts --baseline  write today's violations as the list (after fixing some of them)
//
// dependency-cruiser 18.7 lets known violations through for rules on files only (its TODO for rules with
// scope 'folder'), so the module-level ones are matched here the same way: same rule, same modules in the cycle.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SOURCES = ['apps/server/src', 'apps/web/src', 'packages/contracts/src', 'packages/db/src', 'packages/i18n/src'];
export const KNOWN_VIOLATIONS = '.dependency-cruiser-known-violations.json';

type Known = Pick<IViolation, 'rule' | 'from' | 'to' | 'cycle'>;

const names = (path: { name: string }[] | undefined) =>
  (path ?? [])
    .map((step) => step.name)
    .sort()
    .join();

/** dependency-cruiser's own test for "the same violation" (src/analyze/summarize/is-same-violation.mjs). */
function isSame(known: Known, found: Known): boolean {
  if (known.rule.name !== found.rule.name) return false;
  if (known.cycle && found.cycle) return known.cycle.length === found.cycle.length && names(known.cycle) === names(found.cycle);
  return known.from === found.from && known.to === found.to;
}

export function readKnownViolations(baseDir = ROOT): Known[] {
  try {
    return JSON.parse(readFileSync(join(baseDir, KNOWN_VIOLATIONS), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

export interface Boundaries {
  /** Violations the known list does not have: these fail the lint. */
  fresh: IViolation[];
  /** Violations the known list has. */
  known: IViolation[];
  /** Entries of the known list that are not found any more. */
  gone: Known[];
  modules: number;
}

/** Cruises `sources` (relative to `baseDir`, which has a tsconfig.json for the @/ alias) with this repository's rules. */
export async function checkBoundaries({
  baseDir = ROOT,
  sources = SOURCES,
  knownViolations = readKnownViolations(baseDir),
}: {
  baseDir?: string;
  sources?: string[];
  knownViolations?: Known[];
} = {}): Promise<Boundaries> {
  const options = await extractDepcruiseOptions(join(ROOT, '.dependency-cruiser.cjs'));
  const { output } = await cruise(sources, {
    ...options,
    baseDir,
    tsConfig: { fileName: join(baseDir, 'tsconfig.json') },
    knownViolations: knownViolations as ICruiseResult['summary']['violations'],
  });
  const { summary } = output as ICruiseResult;
  const all = summary.violations.filter((v) => v.rule.severity !== 'info');
  const isKnown = (v: IViolation) => v.rule.severity === 'ignore' || knownViolations.some((k) => isSame(k, v));
  const known = all.filter(isKnown);
  return {
    fresh: all.filter((v) => !isKnown(v)),
    known,
    gone: knownViolations.filter((k) => !known.some((v) => isSame(k, v))),
    modules: summary.totalCruised,
  };
}

export function describeViolation(violation: IViolation): string {
  const cycle = violation.cycle ? ` (cycle: ${[violation.from, ...violation.cycle.map((step) => step.name)].join(' → ')})` : '';
  return `${violation.rule.name}: ${violation.from} → ${violation.to}${cycle}`;
}

async function main() {
  if (process.argv.includes('--baseline')) {
    const { fresh, known } = await checkBoundaries({ knownViolations: [] });
    const list = [...known, ...fresh];
    writeFileSync(join(ROOT, KNOWN_VIOLATIONS), `${JSON.stringify(list, null, 2)}\n`);
    console.log(`${list.length} known violations written to ${KNOWN_VIOLATIONS}`);
    return;
  }
  const { fresh, known, gone, modules } = await checkBoundaries();
  for (const violation of fresh) console.error(`  error ${describeViolation(violation)}`);
  if (gone.length > 0)
    console.log(`${gone.length} known violations are gone: shorten the list with \`npx tsx scripts/boundaries.ts --baseline\``);
  console.log(`boundaries: ${modules} modules, ${fresh.length} new violations, ${known.length} known (${KNOWN_VIOLATIONS})`);
  if (fresh.length > 0) process.exitCode = 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
