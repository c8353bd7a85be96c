import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * One banner of the strip under the top bar (spec §2: the time bonus, the welcome discount, the activation, photo,
 * push and disabled-notifications alerts): a labelled region with its content in the page's container (`bare`:
 * the content brings its own) and a close button. Whether it shows and how its closing is kept is the caller's.
 */
export function MemberBanner({
  label,
  testId,
  className = 'alert-info rounded-0 mb-0 border-0 border-bottom',
  closeClassName = 'btn-close',
  isBare = false,
  onClose,
  children,
}: {
  label: string;
  testId: string;
  /** The alert's look: Bootstrap's alert-* classes and the banner's own. */
  className?: string;
  closeClassName?: string;
  /** The children are the container themselves (a banner that is one link). */
  isBare?: boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className={`alert alert-dismissible ${className}`} role="region" aria-label={label} data-testid={testId}>
      {isBare ? children : <div className="container">{children}</div>}
      <button type="button" className={closeClassName} aria-label={t('common.close')} onClick={onClose} />
    </div>
  );
}
