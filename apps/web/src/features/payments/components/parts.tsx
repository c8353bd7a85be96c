import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { LocalLink } from '@/shared/site/local-link';
import type { CreditPackage } from '../api/types';
import { METHOD_BRANDS } from './method-names';
import { formatPerCredit, useIntlLocale, useMoney } from './money';

/** The name of a payment method: the brand as its owner writes it, or the catalogue's word for a generic one. */
export function useMethodName(): (name: string) => string {
  const { t } = useTranslation('payments');
  return (name: string) => METHOD_BRANDS[name] ?? t(`checkout.methods.${name}`, { defaultValue: name });
}

/** A payment method's logo (served by the API for every method of spec §9); decorative, its name is beside it. */
export function MethodLogo({ name }: { name: string }) {
  return <img className="pay-method-logo" src={`/api/assets/paymentmethod/${name}.svg`} alt="" width={48} height={32} loading="lazy" />;
}

/** A coin stack: credits. */
export function CoinIcon({ size = 24 }: { size?: number }) {
  return (
    <svg viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" focusable="false">
      <ellipse cx="12" cy="6" rx="7" ry="3" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M5 6v6c0 1.7 3.1 3 7 3s7-1.3 7-3V6M5 12v6c0 1.7 3.1 3 7 3s7-1.3 7-3v-6" fill="none" stroke="currentColor" strokeWidth="2" />
    </svg>
  );
}

/** A star: Premium. */
export function StarIcon({ size = 24 }: { size?: number }) {
  return (
    <svg viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" focusable="false">
      <path d="m12 2 2.9 6.3 6.9.7-5.2 4.6 1.5 6.8L12 17l-6.1 3.4 1.5-6.8L2.2 9l6.9-.7z" fill="currentColor" />
    </svg>
  );
}

export function CheckIcon({ size = 20 }: { size?: number }) {
  return (
    <svg viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" focusable="false">
      <path d="m5 12.5 4.5 4.5L19 7.5" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/**
 * One credit package as a card: the credits large, the price (struck through with the discounted one beside it
 * while a discount is active), the price of one credit, the best-value mark (isBest: the list's cheapest per credit). The whole card is the link to its
 * checkout.
 */
export function PackageCard({ pkg, isBest, to }: { pkg: CreditPackage; isBest: boolean; to: string }) {
  const { t } = useTranslation('payments');
  const money = useMoney();
  const locale = useIntlLocale();
  const effective = pkg.discounted_price ?? pkg.price;
  const price = money(effective, pkg.currency);
  const credits = t('credits.packageCredits', { count: pkg.credits });
  return (
    <LocalLink to={to} className={`pay-package${isBest ? ' is-best' : ''}`} data-testid={`package-${pkg.id}`}>
      {isBest && (
        <span className="pay-package-ribbon" data-testid="best-value">
          {t('credits.bestValue')}
        </span>
      )}
      <span className="pay-package-coins" aria-hidden="true">
        <CoinIcon size={28} />
      </span>
      <span className="pay-package-credits">{credits}</span>
      <span className="pay-package-price">
        {pkg.discounted_price !== null && pkg.discounted_price < pkg.price && (
          <s className="pay-package-was" data-testid="was-price">
            {money(pkg.price, pkg.currency)}
          </s>
        )}
        <span className="pay-package-now" data-testid="price">
          {price}
        </span>
      </span>
      <span className="pay-package-per">
        {t('credits.perCredit', { price: formatPerCredit(effective, pkg.credits, pkg.currency, locale) })}
      </span>
      <span className="pay-package-cta" aria-hidden="true">
        {t('credits.buy')}
      </span>
    </LocalLink>
  );
}

/** The member's Premium mark. */
export function PremiumBadge() {
  const { t } = useTranslation('payments');
  return (
    <Badge variant="secondary" className="d-inline-flex align-items-center gap-1 pay-premium-badge">
      <StarIcon size={14} />
      <span data-testid="own-premium-badge">{t('credits.premiumBadge')}</span>
    </Badge>
  );
}

/** What Premium gives (spec §6): every photo, 25 photos instead of 3, the badge, the premium features. */
export function PremiumBenefits() {
  const { t } = useTranslation('payments');
  const items = [
    ['photos', 'M3 5h18v14H3zM3 15l5-5 4 4 3-3 6 6'],
    ['upload', 'M12 16V4m-5 5 5-5 5 5M4 20h16'],
    ['badge', 'm12 2 2.9 6.3 6.9.7-5.2 4.6 1.5 6.8L12 17l-6.1 3.4 1.5-6.8L2.2 9l6.9-.7z'],
    ['features', 'M12 3 4 7v5c0 4.5 3.4 8.3 8 9 4.6-.7 8-4.5 8-9V7z'],
  ] as const;
  return (
    <ul className="pay-benefits list-unstyled" data-testid="premium-benefits">
      {items.map(([key, path]) => (
        <li key={key} className="pay-benefit">
          <span className="pay-benefit-icon" aria-hidden="true">
            <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
              <path d={path} fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" strokeLinecap="round" />
            </svg>
          </span>
          <span>
            <strong className="d-block">{t(`premium.benefits.${key}`)}</strong>
            <span className="text-body-secondary">{t(`premium.benefits.${key}Text`)}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}
