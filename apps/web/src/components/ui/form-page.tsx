import type { ReactNode } from 'react';
import { HeartIcon } from '@/components/ui/heart-icon';

interface FormPageProps {
  title: ReactNode;
  intro?: ReactNode;
  /** The mark above the title: the brand's heart, a tick for a success, a cross for a failure. */
  mark?: 'brand' | 'success' | 'danger';
  /** Links under the card's content (log in, sign up, forgot the password), above a thin rule. */
  links?: ReactNode;
  isWide?: boolean;
  testId?: string;
  children?: ReactNode;
}

const MARKS = {
  success: 'M9.5 16.2 5.3 12l-1.4 1.4 5.6 5.6 11-11-1.4-1.4z',
  danger: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm1 15h-2v-2h2zm0-4h-2V7h2z',
} as const;

/** A page that is one form or one message (signup, login, reset, activation, a sent complaint): one card, centred on a soft background. */
export function FormPage({ title, intro, mark = 'brand', links, isWide = false, testId, children }: FormPageProps) {
  return (
    <main id="main" className="auth-page" data-testid={testId}>
      <div className={isWide ? 'auth-card is-wide' : 'auth-card'}>
        <div className={mark === 'brand' ? 'auth-mark' : `auth-mark is-${mark}`} aria-hidden="true">
          {mark === 'brand' ? (
            <HeartIcon size={26} />
          ) : (
            <svg viewBox="0 0 24 24" width="26" height="26" fill="currentColor" aria-hidden="true" focusable="false">
              <path d={MARKS[mark]} />
            </svg>
          )}
        </div>
        <h1 className="mb-2">{title}</h1>
        {intro && <p className="auth-intro mb-4">{intro}</p>}
        {!intro && <div className="mb-3" />}
        {children}
        {links && <div className="auth-links">{links}</div>}
      </div>
    </main>
  );
}
