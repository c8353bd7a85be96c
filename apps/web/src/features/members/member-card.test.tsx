import type { SearchCard } from '@amora/contracts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderInRoute } from '@/testing/render';
import { MemberCard } from './member-card';

const card = (overrides: Partial<SearchCard> = {}): SearchCard => ({
  id: 7,
  name: 'Sanne',
  age: 29,
  city: 'Utrecht',
  country: 'NL',
  thumb_url: '/photos/7-thumb.webp',
  is_fictional: false,
  is_premium: false,
  ...overrides,
});

describe('MemberCard', () => {
  it('shows the member’s photo when they have one, and no placeholder', async () => {
    await renderInRoute(<MemberCard card={card()} />, { path: '/members', routeName: 'members' });
    const link = await screen.findByTestId('member-card');
    expect(link.querySelector('img')).toHaveAttribute('src', '/photos/7-thumb.webp');
    expect(within(link).queryByTestId('photo-placeholder')).toBeNull();
  });

  it('shows a drawn placeholder in the photo’s place for a member without a photo, not an empty card', async () => {
    await renderInRoute(<MemberCard card={card({ thumb_url: null })} />, { path: '/members', routeName: 'members' });
    const link = await screen.findByTestId('member-card');
    expect(link.querySelector('img')).toBeNull();
    const placeholder = within(link).getByTestId('photo-placeholder');
    // It fills the photo's place and is decorative: the card's text names the member.
    expect(placeholder).toHaveClass('w-100', 'h-100');
    expect(placeholder).toHaveAttribute('aria-hidden', 'true');
    expect(placeholder.querySelector('path, ellipse')).not.toBeNull();
    expect(screen.getByRole('link', { name: /Sanne, 29/ })).toBe(link);
  });
});
