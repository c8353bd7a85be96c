import type { ReactNode } from 'react';

export interface EmptyStateProps {
  title: ReactNode;
  text?: ReactNode;
  /** A picture above the title (an icon, 32 px); a heart by default. */
  icon?: ReactNode;
  /** What the member can do now (a Button or a link styled as one). */
  action?: ReactNode;
  /** The level of the title, h2 by default. */
  titleAs?: 'h2' | 'h3';
  testId?: string;
}

/** What a list shows when there is nothing in it: why, and what to do next. */
export function EmptyState({ title, text, icon, action, titleAs: Title = 'h2', testId }: EmptyStateProps) {
  return (
    <div className="empty-state" data-testid={testId}>
      <span className="empty-state-icon" aria-hidden="true">
        {icon ?? (
          <svg viewBox="0 0 24 24" width="32" height="32" aria-hidden="true" focusable="false">
            <path
              d="M12 21 3.5 12.7a5.2 5.2 0 0 1 7.4-7.4L12 6.4l1.1-1.1a5.2 5.2 0 0 1 7.4 7.4z"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinejoin="round"
            />
          </svg>
        )}
      </span>
      <Title className="h5 mb-2">{title}</Title>
      {text && <p className="text-body-secondary mb-3">{text}</p>}
      {action}
    </div>
  );
}
