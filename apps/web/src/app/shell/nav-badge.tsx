import { useTranslation } from 'react-i18next';
import { CountBadge } from '@/components/ui/badge';
import type { MemberNavItem } from './nav-items';

/** The badge of a navigation item: its own component (credits), or a count (new likes, unread messages) from its hook. */
export function NavBadge({ badge }: { badge: NonNullable<MemberNavItem['badge']> }) {
  if ('Component' in badge) return <badge.Component />;
  return <CountNavBadge badge={badge} />;
}

function CountNavBadge({ badge }: { badge: Extract<NonNullable<MemberNavItem['badge']>, { useCount: unknown }> }) {
  const { t } = useTranslation();
  const count = badge.useCount();
  return <CountBadge count={count} label={t(badge.label, { count })} testId={badge.testId} />;
}
