import { REPORT_MAX_DAYS } from '@amora/contracts';
import type { AppContext } from '../../context';
import { withTransaction } from '../../lib/transaction';
import { lockRollup, rebuildDays, rollupState, saveRollupState, tuneForRollup } from './rollup.repository';

const DAY_MS = 86_400_000;
const dayString = (date: Date) => date.toISOString().slice(0, 10);

/**
 * The `reports.rollup` job (hourly; docs/decisions.md, "Business reports"): once the UTC day has changed since the
 * last rebuild (or there is none yet), the rollup of the last REPORT_MAX_DAYS closed days is rebuilt from the
 * tables that record each figure, in one transaction: what changed in a closed day since (a purge, a deletion)
 * shows after the next rebuild. One rebuild at a time: a second waits for the first, then finds the rollup
 * rebuilt today and does nothing (`force` rebuilds all the same, for the benchmark and the tests).
 */
export async function rebuildReportRollup(
  ctx: Pick<AppContext, 'db' | 'now'>,
  { force = false }: { force?: boolean } = {},
): Promise<{ rebuilt: boolean; from: string; until: string; ms: number }> {
  const until = dayString(ctx.now());
  const from = dayString(new Date(Date.parse(`${until}T00:00:00Z`) - REPORT_MAX_DAYS * DAY_MS));
  return withTransaction(ctx, async (tx) => {
    await lockRollup(tx);
    const state = await rollupState(tx);
    if (!force && state?.computedThrough === until) return { rebuilt: false, from: state.computedFrom, until, ms: 0 };
    const started = performance.now();
    await tuneForRollup(tx);
    await rebuildDays(tx, from, until);
    const ms = Math.round(performance.now() - started);
    await saveRollupState(tx, { computedFrom: from, computedThrough: until, rebuiltAt: ctx.now(), durationMs: ms });
    return { rebuilt: true, from, until, ms };
  });
}
