import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Skeleton, SkeletonRegion, SkeletonText } from '@/components/ui/skeleton';
import { useSettings } from '@/shared/site/api/get-settings';
import { countryName } from '@/shared/site/country-name';
import { useLocale } from '@/shared/site/use-locale';
import { usePageTitle } from '@/shared/site/use-page-title';
import { usePricing } from '../api/payments';
import type { PricingResponse } from '../api/types';
import { formatPerCredit, useIntlLocale, useMoney } from '../components/money';
import { MethodLogo, useMethodName } from '../components/parts';
import '../components/payments.css';

/** `showLogos`: traffic-source visitors see no payment logos (spec §6), here as in the footer; the names stay. */
function PricingTables({ data, showLogos }: { data: PricingResponse; showLogos: boolean }) {
  const { t } = useTranslation('payments');
  const money = useMoney();
  const intlLocale = useIntlLocale();
  const methodName = useMethodName();
  // The lowest price of one credit: what a message, a gift or a photo costs at least in money.
  const cheapest = data.packages.reduce<number | null>((low, p) => {
    const perCredit = p.price / p.credits;
    return low === null || perCredit < low ? perCredit : low;
  }, null);
  const costs = [
    ['costMessage', data.prices.message],
    ['costGift', data.prices.gift],
    ['costPhoto', data.prices.photo],
  ] as const;
  return (
    <>
      <section className="pay-panel" aria-labelledby="pricing-costs" data-testid="pricing-costs">
        <h2 className="h5" id="pricing-costs">
          {t('pricing.costsTitle')}
        </h2>
        <table className="pay-table mb-0">
          <thead>
            <tr>
              <th scope="col">{t('pricing.item')}</th>
              <th scope="col" className="text-end">
                {t('pricing.credits')}
              </th>
              <th scope="col" className="text-end">
                {t('pricing.price')}
              </th>
            </tr>
          </thead>
          <tbody>
            {costs.map(([key, credits]) => (
              <tr key={key}>
                <th scope="row">{t(`credits.${key}`)}</th>
                <td className="text-end">{credits}</td>
                <td className="text-end">
                  {cheapest !== null ? t('pricing.fromPrice', { price: money(Math.round(cheapest * credits), data.currency) }) : '–'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="pay-panel" aria-labelledby="pricing-packages" data-testid="pricing-packages">
        <h2 className="h5" id="pricing-packages">
          {t('pricing.packagesTitle')}
        </h2>
        <table className="pay-table mb-0">
          <thead>
            <tr>
              <th scope="col">{t('pricing.package')}</th>
              <th scope="col" className="text-end">
                {t('pricing.price')}
              </th>
              <th scope="col" className="text-end">
                {t('pricing.perCredit')}
              </th>
            </tr>
          </thead>
          <tbody>
            {data.packages.map((p) => (
              <tr key={p.id}>
                <th scope="row">
                  {t('credits.packageCredits', { count: p.credits })}
                  {p.best_value && <span className="badge text-bg-secondary ms-2">{t('credits.bestValue')}</span>}
                </th>
                <td className="text-end">{money(p.price, p.currency)}</td>
                <td className="text-end">{formatPerCredit(p.price, p.credits, p.currency, intlLocale)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="pay-panel" aria-labelledby="pricing-fees" data-testid="pricing-fees">
        <h2 className="h5" id="pricing-fees">
          {t('pricing.feesTitle')}
        </h2>
        <p className="text-body-secondary">{t('pricing.feesIntro')}</p>
        <table className="pay-table mb-0">
          <thead>
            <tr>
              <th scope="col">{t('pricing.methodCol')}</th>
              <th scope="col" className="text-end">
                {t('pricing.feeCol')}
              </th>
            </tr>
          </thead>
          <tbody>
            {data.methods.map((m) => (
              <tr key={m.name}>
                <th scope="row" className="d-flex align-items-center gap-2">
                  {showLogos && <MethodLogo name={m.name} />}
                  {methodName(m.name)}
                </th>
                <td className="text-end">{m.fee > 0 ? money(m.fee, data.currency) : t('pricing.noFee')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}

/**
 * /pricing (spec §2, public, linked from the footer): what a message, a gift and a photo cost, the packages of
 * the visitor's payment country and the transaction fee of each payment method. Like the footer, it shows a
 * traffic-source visitor no payment logos and no company block (spec §6).
 */
export function Component() {
  const { t } = useTranslation('payments');
  const settings = useSettings();
  const locale = useLocale();
  usePageTitle(t('pricing.title'));
  const [params, setParams] = useSearchParams();
  const asked = params.get('country') ?? undefined;
  const pricing = usePricing(asked && /^[A-Z]{2}$/.test(asked) ? asked : undefined);
  const selectId = useId();
  const data = pricing.data;
  return (
    <main id="main" className="container pay-page pay-pricing py-3 py-md-4">
      <h1 className="h3 mb-2">{t('pricing.title')}</h1>
      <p className="lead pay-lead">{t('pricing.intro', { site: settings.name })}</p>
      {data && data.countries.length > 1 && (
        <div className="pay-country mb-3">
          <label htmlFor={selectId} className="form-label mb-1">
            {t('pricing.countryLabel')}
          </label>
          <select
            id={selectId}
            className="form-select"
            value={data.payment_country}
            onChange={(event) => setParams({ country: event.target.value }, { replace: true, preventScrollReset: true })}
            data-testid="pricing-country"
          >
            {[...data.countries]
              .map((code) => ({ code, name: countryName(code, locale) }))
              .sort((a, b) => a.name.localeCompare(b.name, locale))
              .map(({ code, name }) => (
                <option key={code} value={code}>
                  {name}
                </option>
              ))}
          </select>
        </div>
      )}
      {pricing.isPending && (
        <SkeletonRegion label={t('pricing.loading')} className="pay-history">
          {[0, 1, 2].map((i) => (
            <div className="pay-panel" key={i} aria-hidden="true">
              <Skeleton width="30%" height={22} className="mb-3" />
              <SkeletonText lines={3} />
            </div>
          ))}
        </SkeletonRegion>
      )}
      {pricing.isError && (
        <div className="alert alert-danger d-flex align-items-center gap-3" role="alert">
          <span className="me-auto">{t('pricing.loadError')}</span>
          <Button variant="outline-danger" size="sm" onClick={() => void pricing.refetch()}>
            {t('pricing.retry')}
          </Button>
        </div>
      )}
      {pricing.data && (
        <div className="pay-history">
          <PricingTables data={pricing.data} showLogos={!settings.is_trafficsource} />
        </div>
      )}
    </main>
  );
}
