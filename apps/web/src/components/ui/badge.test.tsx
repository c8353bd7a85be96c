import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CountBadge, countBadgeText } from './badge';

describe('count badge', () => {
  it('shows the count up to 99, then 99+', () => {
    expect([1, 9, 99, 100, 12345].map((n) => countBadgeText(n))).toEqual(['1', '9', '99', '99+', '99+']);
    expect(countBadgeText(10, 9)).toBe('9+');
  });

  it('shows 99+ but reads its label, and shows nothing at 0', () => {
    const { rerender } = render(<CountBadge count={150} label="150 unread messages" testId="unread" />);
    const badge = screen.getByTestId('unread');
    expect(badge).toHaveClass('count-badge');
    expect(badge.querySelector('[aria-hidden="true"]')).toHaveTextContent('99+');
    expect(screen.getByText('150 unread messages')).toHaveClass('visually-hidden');
    rerender(<CountBadge count={0} label="No unread messages" testId="unread" />);
    expect(screen.queryByTestId('unread')).toBeNull();
  });
});
