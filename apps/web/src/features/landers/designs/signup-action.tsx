import type { ReactNode } from 'react';
import { LanderLink } from '../lander-site';

/**
 * A lander's way in: a button that opens signup (about `profileId` when given), or, when this visitor may not
 * sign up (spec §6 `signups`), a link to the login with the same look.
 */
export function SignupAction({
  canSignUp,
  onSignup,
  profileId,
  className,
  label,
  testId,
  isRedundant = false,
  children,
}: {
  canSignUp: boolean;
  onSignup: (profileId?: number) => void;
  profileId?: number;
  className: string;
  /** The accessible name when the content alone does not say where it leads. */
  label?: string;
  testId?: string;
  /**
   * A larger target for a pointer beside a button that does the same (a photo by its "Write to" button): left out
   * of the tab order and of what a screen reader reads, so nothing is said twice.
   */
  isRedundant?: boolean;
  children?: ReactNode;
}) {
  const redundant = isRedundant ? { tabIndex: -1, 'aria-hidden': true } : {};
  if (!canSignUp) {
    return (
      <LanderLink to="/login" className={className} aria-label={label} data-testid={testId} {...redundant}>
        {children}
      </LanderLink>
    );
  }
  return (
    <button type="button" className={className} aria-label={label} data-testid={testId} onClick={() => onSignup(profileId)} {...redundant}>
      {children}
    </button>
  );
}
