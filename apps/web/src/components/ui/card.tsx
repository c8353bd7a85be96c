import type { ReactNode } from 'react';

export interface CardProps {
  children: ReactNode;
  /** A heading at the top of the card; `titleAs` picks its level (h2 by default). */
  title?: ReactNode;
  titleAs?: 'h2' | 'h3' | 'h4';
  footer?: ReactNode;
  /** A picture above the body (an <img> or an Avatar), edge to edge. */
  media?: ReactNode;
  /** A stronger shadow, for a card that stands out (a call to action). */
  isElevated?: boolean;
  className?: string;
  bodyClassName?: string;
  testId?: string;
}

/** A content card: Bootstrap's card with the theme's radius and soft shadow. */
export function Card({
  children,
  title,
  titleAs: Title = 'h2',
  footer,
  media,
  isElevated = false,
  className,
  bodyClassName,
  testId,
}: CardProps) {
  return (
    <section className={['card', isElevated ? 'card-elevated' : null, className].filter(Boolean).join(' ')} data-testid={testId}>
      {media}
      <div className={['card-body', bodyClassName].filter(Boolean).join(' ')}>
        {title && <Title className="card-title h5">{title}</Title>}
        {children}
      </div>
      {footer && <div className="card-footer bg-transparent">{footer}</div>}
    </section>
  );
}
