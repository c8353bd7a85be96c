import {
  REPORT_DISTINCT_ACTIVE_MAX_DAYS,
  REPORT_MAX_DAYS,
  type Report,
  type ReportFigures,
  type ReportMoney,
  type ReportQuery,
  type ReportTotals,
} from '@amora/contracts';
import { type FormEvent, lazy, Suspense, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { consoleErrorText } from '../console-error';
import { useConsoleTitle } from '../shell/use-console-title';
import { csvUrl, useReport, useReportSites } from './reports-api';

// uPlot loads with the first chart, on this page only.
const FigureChart = lazy(() => import('./figure-chart').then((m) => ({ default: m.FigureChart })));

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The site and period of the address (?site=2&from=2026-01-01&to=2026-01-31): a report can be linked and reloaded. */
function queryOf(params: URLSearchParams): ReportQuery {
  const site = Number(params.get('site'));
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  return {
    site: Number.isInteger(site) && site > 0 ? site : undefined,
    from: DAY.test(from) ? from : undefined,
    to: DAY.test(to) ? to : undefined,
  };
}

function paramsOf(query: ReportQuery): Record<string, string> {
  const params: Record<string, string> = {};
  if (query.site) params.site = String(query.site);
  if (query.from) params.from = query.from;
  if (query.to) params.to = query.to;
  return params;
}

/** An amount in minor units of its currency, in the console's language. */
function formatMoney(money: ReportMoney, language: string): string {
  const format = new Intl.NumberFormat(language, { style: 'currency', currency: money.currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(money.amount_minor / 10 ** digits);
}

function MoneyCell({ list }: { list: readonly ReportMoney[] }) {
  const { t, i18n } = useTranslation('console');
  if (list.length === 0) return <span className="text-body-secondary">–</span>;
  return (
    <>
      {list.map((m) => (
        <div key={m.currency} className="text-nowrap">
          {formatMoney(m, i18n.language)} <span className="small text-body-secondary">({t('reports.count', { count: m.count })})</span>
        </div>
      ))}
    </>
  );
}

const COUNTS = ['visits', 'signups', 'activations', 'first_purchases', 'messages_members', 'messages_fictional', 'active_members'] as const;
const MONEY = ['revenue', 'refunds', 'chargebacks'] as const;
const LABEL: Record<(typeof COUNTS)[number] | (typeof MONEY)[number], string> = {
  visits: 'reports.visits',
  signups: 'reports.signups',
  activations: 'reports.activations',
  first_purchases: 'reports.firstPurchases',
  messages_members: 'reports.messagesMembers',
  messages_fictional: 'reports.messagesFictional',
  active_members: 'reports.activeMembers',
  revenue: 'reports.revenue',
  refunds: 'reports.refunds',
  chargebacks: 'reports.chargebacks',
};

/** The period's active members: each once (periods up to 31 days), and the days' average and peak. */
function ActiveTotal({ totals }: { totals: ReportTotals }) {
  const { t, i18n } = useTranslation('console');
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  const daily = t('reports.activeDaily', {
    average: number.format(totals.active_members_average),
    peak: number.format(totals.active_members_peak),
  });
  if (totals.active_members === null) return <span data-testid="report-active-daily">{daily}</span>;
  return (
    <>
      {number.format(totals.active_members)}
      <div className="small text-body-secondary" data-testid="report-active-daily">
        {daily}
      </div>
    </>
  );
}

function Row({ label, figures, totals }: { label: string; figures: ReportFigures | ReportTotals; totals?: ReportTotals }) {
  const { i18n } = useTranslation('console');
  const number = new Intl.NumberFormat(i18n.language);
  return (
    <tr>
      <th scope="row" className="text-nowrap">
        {label}
      </th>
      {COUNTS.map((key) => (
        <td key={key} className="text-end">
          {key === 'active_members' && totals ? <ActiveTotal totals={totals} /> : number.format(figures[key] ?? 0)}
        </td>
      ))}
      {MONEY.map((key) => (
        <td key={key} className="text-end">
          <MoneyCell list={figures[key]} />
        </td>
      ))}
    </tr>
  );
}

function Funnel({ report }: { report: Report }) {
  const { t, i18n } = useTranslation('console');
  const number = new Intl.NumberFormat(i18n.language);
  const percent = new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 1 });
  const steps = [
    ['reports.visits', report.funnel.visits],
    ['reports.signups', report.funnel.signups],
    ['reports.activations', report.funnel.activations],
    ['reports.firstPurchases', report.funnel.first_purchases],
  ] as const;
  return (
    <section className="card card-body mb-3" aria-labelledby="reports-funnel" data-testid="report-funnel">
      <h2 className="h5" id="reports-funnel">
        {t('reports.funnel')}
      </h2>
      <ol className="list-unstyled d-flex flex-wrap gap-4 mb-2">
        {steps.map(([key, value], i) => {
          const before = i > 0 ? steps[i - 1][1] : 0;
          return (
            <li key={key}>
              <div className="small text-body-secondary">{t(key)}</div>
              <div className="fs-5">{number.format(value)}</div>
              {i > 0 && before > 0 && <div className="small">{t('reports.ofStepBefore', { percent: percent.format(value / before) })}</div>}
            </li>
          );
        })}
      </ol>
      <p className="small text-body-secondary mb-0">{t('reports.visitsNote')}</p>
    </section>
  );
}

/** The funnel per lander, slug and network: visits, then signups, activations and first purchases of its members. */
function Sources({ report }: { report: Report }) {
  const { t, i18n } = useTranslation('console');
  const number = new Intl.NumberFormat(i18n.language);
  const figures = ['visits', 'signups', 'activations', 'first_purchases'] as const;
  return (
    <section className="mb-3" aria-labelledby="reports-sources" data-testid="report-sources">
      <h2 className="h5" id="reports-sources">
        {t('reports.sources')}
      </h2>
      {report.sources.length === 0 ? (
        <p className="text-body-secondary">{t('reports.noSources')}</p>
      ) : (
        <div className="table-responsive">
          <table className="table console-table align-middle">
            <caption className="small">
              {t('reports.sourcesNote')}
              {report.sources_left_off > 0 && ` ${t('reports.sourcesLeftOff', { count: report.sources_left_off })}`}
            </caption>
            <thead>
              <tr>
                <th scope="col">{t('reports.lander')}</th>
                <th scope="col">{t('reports.slug')}</th>
                <th scope="col">{t('reports.network')}</th>
                {figures.map((key) => (
                  <th scope="col" className="text-end" key={key}>
                    {t(LABEL[key])}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {report.sources.map((source) => (
                <tr key={`${source.lander}|${source.slug}|${source.network}`}>
                  <th scope="row">{source.lander || <span className="text-body-secondary">{t('reports.otherPages')}</span>}</th>
                  <td>{source.slug || '–'}</td>
                  <td className="text-break">{source.network || '–'}</td>
                  {figures.map((key) => (
                    <td className="text-end" key={key}>
                      {number.format(source[key])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function Charts({ report }: { report: Report }) {
  const { t } = useTranslation('console');
  const charts = useMemo(() => {
    const days = report.days.map((d) => d.day);
    const counts = COUNTS.map((key) => ({
      key,
      title: t(LABEL[key]),
      series: [{ label: t(LABEL[key]), values: report.days.map((d) => d[key]) }],
    }));
    const money = MONEY.map((key) => {
      const currencies = [...new Set(report.days.flatMap((d) => d[key].map((m) => m.currency)))].sort();
      return {
        key,
        title: t(LABEL[key]),
        series: currencies.map((currency) => ({
          label: currency,
          values: report.days.map((d) => (d[key].find((m) => m.currency === currency)?.amount_minor ?? 0) / 100),
        })),
      };
    });
    return { days, list: [...counts, ...money].filter((c) => c.series.length > 0) };
  }, [report, t]);
  return (
    <section aria-label={t('reports.charts')} className="row g-3 mb-3">
      {charts.list.map((chart) => (
        <div key={chart.key} className="col-md-6 col-xl-4">
          <Suspense fallback={<div className="card card-body h-100 text-body-secondary">{t('loading')}</div>}>
            <FigureChart title={chart.title} days={charts.days} series={chart.series} />
          </Suspense>
        </div>
      ))}
    </section>
  );
}

/** Business reports (admins): per site and day, the funnel, a chart per figure and the CSV. */
export function ReportsPage() {
  const { t, i18n } = useTranslation('console');
  const [params, setParams] = useSearchParams();
  const query = queryOf(params);
  const report = useReport(query);
  const sites = useReportSites();
  const ids = useId();
  useConsoleTitle(t('reports.title'));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const site = Number(data.get('site'));
    const from = String(data.get('from') ?? '');
    const to = String(data.get('to') ?? '');
    setParams(paramsOf({ site: site > 0 ? site : undefined, from: DAY.test(from) ? from : undefined, to: DAY.test(to) ? to : undefined }));
  };
  const data = report.data;
  const formatDay = (day: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
  const formatTime = (at: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(at));

  return (
    <>
      <h1 className="h3 mb-3">{t('reports.title')}</h1>
      <form className="card card-body mb-3" onSubmit={submit} aria-label={t('reports.period')} data-testid="report-filters">
        <div className="row g-3 align-items-end" key={`${query.site}|${data?.from}|${data?.to}`}>
          <div className="col-md-4">
            <label className="form-label" htmlFor={`${ids}-site`}>
              {t('reports.site')}
            </label>
            <select id={`${ids}-site`} name="site" className="form-select" defaultValue={query.site ?? ''}>
              <option value="">{t('reports.allSites')}</option>
              {sites.data?.map((site) => (
                <option key={site.id} value={site.id}>
                  {site.name} ({site.domain})
                </option>
              ))}
            </select>
          </div>
          <div className="col-md-3">
            <label className="form-label" htmlFor={`${ids}-from`}>
              {t('reports.from')}
            </label>
            <input id={`${ids}-from`} name="from" type="date" className="form-control" defaultValue={query.from ?? data?.from} />
          </div>
          <div className="col-md-3">
            <label className="form-label" htmlFor={`${ids}-to`}>
              {t('reports.to')}
            </label>
            <input id={`${ids}-to`} name="to" type="date" className="form-control" defaultValue={query.to ?? data?.to} />
          </div>
          <div className="col-md-2 d-flex gap-2">
            <Button type="submit" variant="primary" testId="report-show">
              {t('reports.show')}
            </Button>
          </div>
        </div>
        <p className="small text-body-secondary mt-2 mb-0">{t('reports.periodHint', { count: REPORT_MAX_DAYS })}</p>
      </form>

      {report.isError && (
        <div className="alert alert-danger" role="alert">
          {consoleErrorText(t, report.error)}
        </div>
      )}
      {!data && !report.isError && <p className="text-body-secondary">{t('loading')}</p>}
      {data && (
        <>
          <div className="d-flex flex-wrap justify-content-between align-items-center mb-3 gap-2">
            <p className="mb-0">{t('reports.days', { count: data.days.length })}</p>
            <a className="btn btn-outline-secondary" href={csvUrl(query)} download data-testid="report-csv">
              {t('reports.csv')}
            </a>
          </div>
          <Funnel report={data} />
          <Charts report={data} />
          <Sources report={data} />
          <div className="table-responsive">
            <table className="table console-table align-middle" data-testid="report-table" aria-busy={report.isFetching || undefined}>
              <caption className="small">
                {t('reports.activeNote', { count: REPORT_DISTINCT_ACTIVE_MAX_DAYS })}
                {data.rollup && (
                  <span data-testid="report-rollup-note">
                    {' '}
                    {t('reports.rollupNote', {
                      from: formatDay(data.rollup.from),
                      to: formatDay(data.rollup.to),
                      rebuilt: formatTime(data.rollup.rebuilt_at),
                    })}
                  </span>
                )}
              </caption>
              <thead>
                <tr>
                  <th scope="col">{t('reports.day')}</th>
                  {[...COUNTS, ...MONEY].map((key) => (
                    <th key={key} scope="col" className="text-end">
                      {t(LABEL[key])}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {data.days.map((day) => (
                  <Row key={day.day} label={formatDay(day.day)} figures={day} />
                ))}
              </tbody>
              <tfoot>
                <Row label={t('reports.total')} figures={data.totals} totals={data.totals} />
              </tfoot>
            </table>
          </div>
        </>
      )}
    </>
  );
}

export { ReportsPage as Component };
