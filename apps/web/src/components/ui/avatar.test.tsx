import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Avatar } from './avatar';

describe('avatar', () => {
  it('shows the photo, described by the name only when asked to', () => {
    const { container, rerender } = render(<Avatar name="Maya" src="/media/maya.jpg" />);
    expect(container.querySelector('img')).toHaveAttribute('alt', '');
    rerender(<Avatar name="Maya" src="/media/maya.jpg" isLabelled />);
    expect(screen.getByRole('img', { name: 'Maya' })).toHaveAttribute('src', '/media/maya.jpg');
  });

  it('without a photo shows the initial (a whole letter, also beyond ASCII) on the same colour for the same name', () => {
    const { rerender } = render(<Avatar name="łukasz" size="lg" />);
    const placeholder = screen.getByTestId('avatar-placeholder');
    expect(placeholder).toHaveTextContent('Ł');
    expect(placeholder).toHaveClass('avatar', 'avatar-lg');
    expect(placeholder).toHaveAttribute('aria-hidden', 'true');
    const colour = placeholder.style.getPropertyValue('--am-avatar-bg');
    rerender(<Avatar name="łukasz" isLabelled />);
    expect(screen.getByRole('img', { name: 'łukasz' }).style.getPropertyValue('--am-avatar-bg')).toBe(colour);
  });
});
