import type { Metrics } from '../lib/metrics';

/**
 * The value of a metric of `metrics`, summed over its series whose labels include `labels` (0 when none). A
 * histogram's count or sum is asked for as `<name>_count` or `<name>_sum`.
 */
export async function metricValue(metrics: Metrics, name: string, labels: Record<string, string> = {}): Promise<number> {
  const base = name.replace(/_(count|sum)$/, '');
  const metric = metrics.registry.getSingleMetric(name) ?? metrics.registry.getSingleMetric(base);
  if (!metric) throw new Error(`no metric ${name}`);
  const series = metrics.registry.getSingleMetric(name) ? undefined : name;
  const { values } = (await metric.get()) as { values: { value: number; labels: Record<string, unknown>; metricName?: string }[] };
  return values
    .filter((value) => value.metricName === series)
    .filter((value) => Object.entries(labels).every(([key, wanted]) => String(value.labels[key]) === wanted))
    .reduce((sum, value) => sum + value.value, 0);
}
