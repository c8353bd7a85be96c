import { bestValueId } from '@amora/contracts';
import { useTranslation } from 'react-i18next';
import { Button, buttonClass } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Skeleton, SkeletonRegion } from '@/components/ui/skeleton';
import { LocalLink } from '@/shared/site/local-link';
import { usePageTitle } from '@/shared/site/use-page-title';
import { usePackages } from '../api/payments';
import type { PackagesResponse } from '../api/types';
import { MembersOnly } from '../components/members-only';
import { useMoney, usePercent } from '../components/money';
import { CoinIcon, PackageCard, PremiumBadge, useMethodName } from '../components/parts';
import '../components/payments.css';

/** The packages' places while they load, so nothing moves when they come. */
export function PackagesSkeleton({ label }: { label: string }) {
  return (
    <SkeletonRegion label={label} className="pay-packages">
      {[0, 1, 2, 3].map((i) => (
        <div className="pay-package is-skeleton" key={i} aria-hidden="true">
          <Skeleton shape="circle" width={44} height={44} />
          <Skeleton width="60%" height={28} />
          <Skeleton width="40%" />
          <Skeleton width="50%" />
        </div>
      ))}
    </SkeletonRegion>
  );
}

/** The packages of the member's payment country, each leading to its checkout. */
export function PackageGrid({ data }: { data: PackagesResponse }) {
  const { t } = useTranslation('payments');
  if (data.packages.length === 0) {
    return (
      <EmptyState title={t('credits.none')} text={t('credits.noneHelp')} icon={<CoinIcon size={32} />} titleAs="h3" testId="no-packages" />
    );
  }
  // Worked out from the prices shown, so the mark is always on the package cheapest per credit.
  const best = bestValueId(data.packages);
  return (
    <div className="pay-packages" data-testid="packages">
      {data.packages.map((pkg) => (
        <PackageCard key={pkg.id} pkg={pkg} isBest={pkg.id === best} to={`/credits/${pkg.id}`} />
      ))}
    </div>
  );
}

/** The active discount above the packages: its percentage and when it ends. */
export function DiscountNote({ data }: { data: PackagesResponse }) {
  const { t } = useTranslation('payments');
  const percent = usePercent();
  const discount = data.discount;
  if (!discount || discount.expired || !data.packages.some((p) => p.discounted_price !== null)) return null;
  return (
    <p className="pay-discount-note" data-testid="discount-note">
      <span className="pay-discount-pill" aria-hidden="true">
        −{percent(discount.value_percentage)}
      </span>
      {t('credits.discountActive', { percent: percent(discount.value_percentage) })}
    </p>
  );
}

function Costs({ data }: { data: PackagesResponse }) {
  const { t } = useTranslation('payments');
  const rows = [
    ['costMessage', data.prices.message],
    ['costGift', data.prices.gift],
    ['costPhoto', data.prices.photo],
  ] as const;
  return (
    <section className="pay-panel" aria-labelledby="pay-costs-title" data-testid="costs">
      <h2 className="h6 mb-2" id="pay-costs-title">
        {t('credits.costsTitle')}
      </h2>
      <dl className="pay-costs mb-0">
        {rows.map(([key, credits]) => (
          <div key={key}>
            <dt>{t(`credits.${key}`)}</dt>
            <dd>{t('credits.costCredits', { count: credits })}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function RepeatOrder({ data }: { data: PackagesResponse }) {
  const { t } = useTranslation('payments');
  const methodName = useMethodName();
  const money = useMoney();
  const last = data.last_order;
  const pkg = last ? data.packages.find((p) => p.id === last.package_id) : undefined;
  if (!last || !pkg) return null;
  return (
    <section className="pay-panel pay-repeat" data-testid="repeat-order">
      <div>
        <h2 className="h6 mb-1">{t('credits.repeatTitle')}</h2>
        <p className="mb-0 text-body-secondary small">
          {t('credits.repeatText', { package: t('credits.packageCredits', { count: pkg.credits }), method: methodName(last.method) })}
          {' · '}
          {money(pkg.discounted_price ?? pkg.price, pkg.currency)}
        </p>
      </div>
      <LocalLink to="/credits/repeat-order" className={buttonClass({ variant: 'outline-primary' })} data-testid="repeat-order-button">
        {t('credits.repeat')}
      </LocalLink>
    </section>
  );
}

/**
 * /credits (spec §2): the member's balance, the packages of their payment country with the active discount, what a
 * message, a gift and a photo cost, and the last order to repeat in one step.
 */
function CreditsPage() {
  const { t } = useTranslation('payments');
  usePageTitle(t('credits.title'));
  const packages = usePackages();
  const data = packages.data;
  return (
    <main id="main" className="container pay-page py-3 py-md-4">
      <header className="pay-hero" data-testid="credits-hero">
        <div>
          <h1 className="h3 mb-1">{t('credits.title')}</h1>
          <p className="mb-0 pay-hero-intro">{t('credits.intro')}</p>
        </div>
        <div className="pay-balance" data-testid="balance">
          <span className="pay-balance-label">{t('credits.balanceLabel')}</span>
          {data ? (
            <span className="pay-balance-value">
              <CoinIcon size={22} />
              {t('credits.balance', { count: data.credits })}
            </span>
          ) : (
            <Skeleton width={120} height={28} />
          )}
          {data?.paid_user && <PremiumBadge />}
        </div>
      </header>
      {packages.isError && (
        <div className="alert alert-danger d-flex align-items-center gap-3" role="alert">
          <span className="me-auto">{t('credits.loadError')}</span>
          <Button variant="outline-danger" size="sm" onClick={() => void packages.refetch()}>
            {t('credits.retry')}
          </Button>
        </div>
      )}
      {data && <RepeatOrder data={data} />}
      <h2 className="h5 mt-4 mb-3">{t('credits.choose')}</h2>
      {data && <DiscountNote data={data} />}
      {packages.isPending && <PackagesSkeleton label={t('credits.loading')} />}
      {data && <PackageGrid data={data} />}
      <p className="pay-secure small text-body-secondary mt-3">{t('credits.secure')}</p>
      <div className="pay-side-grid mt-4">
        {data && <Costs data={data} />}
        <nav className="pay-panel pay-links" aria-label={t('credits.history')}>
          <LocalLink to="/transactions" data-testid="history-link">
            {t('credits.history')}
          </LocalLink>
          <LocalLink to="/pricing">{t('credits.pricing')}</LocalLink>
        </nav>
      </div>
    </main>
  );
}

export function Component() {
  return (
    <MembersOnly>
      <CreditsPage />
    </MembersOnly>
  );
}
