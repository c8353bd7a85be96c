import type { ButtonHTMLAttributes } from 'react';

type ButtonVariant =
  | 'primary'
  | 'secondary'
  | 'success'
  | 'danger'
  | 'light'
  | 'link'
  | 'outline-primary'
  | 'outline-secondary'
  | 'outline-dark'
  | 'outline-danger';
type ButtonSize = 'sm' | 'md' | 'lg';

export interface ButtonStyle {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Full width of its container. */
  isBlock?: boolean;
  className?: string;
}

/** The classes of a button, for links that look like one (`<LocalLink className={buttonClass({...})}>`). */
export function buttonClass({ variant = 'primary', size = 'md', isBlock = false, className }: ButtonStyle = {}): string {
  return ['btn', `btn-${variant}`, size !== 'md' ? `btn-${size}` : null, isBlock ? 'w-100' : null, className].filter(Boolean).join(' ');
}

export interface ButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'className'>, ButtonStyle {
  /** Shows a spinner, marks the button busy and disables it; the label stays, so the width does not jump. */
  isLoading?: boolean;
  testId?: string;
}

/** A button in the theme's look: pill-shaped, and at least 44 px high on phones at every size. */
export function Button({
  variant,
  size,
  isBlock,
  className,
  isLoading = false,
  testId,
  type = 'button',
  disabled,
  children,
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      className={buttonClass({ variant, size, isBlock, className })}
      disabled={disabled || isLoading}
      aria-busy={isLoading || undefined}
      data-testid={testId}
      {...rest}
    >
      {isLoading && <span className="spinner-border spinner-border-sm" aria-hidden="true" />}
      {children}
    </button>
  );
}
