import { useTranslation } from 'react-i18next';
import { Button, buttonClass } from '@/components/ui/button';
import { useUser } from '@/shared/session/user';
import { useSettings } from '@/shared/site/api/get-settings';
import { LocalLink } from '@/shared/site/local-link';
import { useLocalePath } from '@/shared/site/use-locale';
import { usePageTitle } from '@/shared/site/use-page-title';
import { usePackages } from '../api/payments';
import { PremiumBenefits, StarIcon } from '../components/parts';
import { DiscountNote, PackageGrid, PackagesSkeleton } from './credits-page';
import '../components/payments.css';

/**
 * /premium (spec §2, members area): what Premium gives (every photo, 25 photos instead of 3, the badge, the
 * premium features), and the packages, any of which makes a member Premium for good. A visitor is asked to log in.
 */
export function Component() {
  const { t } = useTranslation('payments');
  const settings = useSettings();
  const user = useUser();
  const localize = useLocalePath();
  usePageTitle(t('premium.title'));
  const packages = usePackages(user !== null);
  const isPremium = user?.paid_user ?? false;
  return (
    <main id="main" className="container pay-page py-3 py-md-4">
      <header className="pay-premium-hero" data-testid="premium-hero">
        <span className="pay-premium-star" aria-hidden="true">
          <StarIcon size={30} />
        </span>
        <h1 className="h2 mb-2">{isPremium ? t('premium.already') : t('premium.headline', { site: settings.name })}</h1>
        <p className="mb-0">{isPremium ? t('premium.alreadyText') : t('premium.intro')}</p>
      </header>
      <section className="pay-panel mt-3" aria-labelledby="pay-benefits-title">
        <h2 className="h5 mb-3" id="pay-benefits-title">
          {t('premium.benefitsTitle')}
        </h2>
        <PremiumBenefits />
      </section>
      {user ? (
        <section className="mt-4" aria-labelledby="pay-premium-packages">
          <h2 className="h5 mb-3" id="pay-premium-packages">
            {isPremium ? t('premium.buyCredits') : t('premium.packagesTitle')}
          </h2>
          {packages.data && <DiscountNote data={packages.data} />}
          {packages.isPending && <PackagesSkeleton label={t('credits.loading')} />}
          {packages.isError && (
            <div className="alert alert-danger d-flex align-items-center gap-3" role="alert">
              <span className="me-auto">{t('credits.loadError')}</span>
              <Button variant="outline-danger" size="sm" onClick={() => void packages.refetch()}>
                {t('credits.retry')}
              </Button>
            </div>
          )}
          {packages.data && <PackageGrid data={packages.data} />}
          <p className="pay-secure small text-body-secondary mt-3">{t('credits.secure')}</p>
        </section>
      ) : (
        <section className="pay-panel mt-4 text-center">
          <h2 className="h5">{t('premium.loginTitle')}</h2>
          <LocalLink to={`/login?redirect=${encodeURIComponent(localize('/premium'))}`} className={buttonClass()}>
            {t('premium.login')}
          </LocalLink>
        </section>
      )}
    </main>
  );
}
