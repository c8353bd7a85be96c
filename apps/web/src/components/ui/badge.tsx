import type { ReactNode } from 'react';

export type BadgeVariant = 'primary' | 'secondary' | 'success' | 'danger' | 'warning' | 'light' | 'dark';

/** A small label (Premium, New, a status) in one of the theme's colours. */
export function Badge({
  children,
  variant = 'primary',
  isPill = true,
  className,
}: {
  children: ReactNode;
  variant?: BadgeVariant;
  isPill?: boolean;
  className?: string;
}) {
  return (
    <span className={['badge', `text-bg-${variant}`, isPill ? 'rounded-pill' : null, className].filter(Boolean).join(' ')}>{children}</span>
  );
}

/** The number a count badge shows: the count up to `max`, then "99+" (spec §2). */
export function countBadgeText(count: number, max = 99): string {
  return count > max ? `${max}+` : String(count);
}

export interface CountBadgeProps {
  count: number;
  /** What the count means, read instead of the bare number ("3 new likes"). */
  label: string;
  max?: number;
  className?: string;
  testId?: string;
}

/** The red count of unread messages or new likes: nothing at 0, "99+" above 99. */
export function CountBadge({ count, label, max = 99, className, testId }: CountBadgeProps) {
  if (count <= 0) return null;
  return (
    <span className={['count-badge', className].filter(Boolean).join(' ')} data-testid={testId}>
      <span aria-hidden="true">{countBadgeText(count, max)}</span>
      <span className="visually-hidden">{label}</span>
    </span>
  );
}
