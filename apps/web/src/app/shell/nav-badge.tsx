import { useTranslation } from 'react-i18next';
import { CountBadge } from '@/components/ui/badge';
import type { MemberNavItem } from './nav-items';

/** The count badge of a navigation item (new likes, unread messages), from the item's own hook. */
export function NavBadge({ badge }: { badge: NonNullable<MemberNavItem['badge']> }) {
  const { t } = useTranslation();
  const count = badge.useCount();
  return <CountBadge count={count} label={t(badge.label, { count })} testId={badge.testId} />;
}
