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

  it('is 330 px high whatever its photo, and loads the photo of a first-screen card at once', async () => {
    await renderInRoute(
      <>
        <MemberCard card={card({ id: 1 })} priority="high" />
        <MemberCard card={card({ id: 2 })} priority="eager" />
        <MemberCard card={card({ id: 3 })} />
      </>,
      { path: '/members', routeName: 'members' },
    );
    const [first, second, third] = await screen.findAllByTestId('member-card');
    // Bootstrap's h-100 is !important: it would let the photo decide the height.
    expect(first).not.toHaveClass('h-100');
    expect(first).toHaveStyle({ height: '330px' });
    expect(first.querySelector('img')).toHaveAttribute('fetchpriority', 'high');
    expect(first.querySelector('img')).toHaveAttribute('loading', 'eager');
    expect(second.querySelector('img')).toHaveAttribute('loading', 'eager');
    expect(second.querySelector('img')).not.toHaveAttribute('fetchpriority');
    expect(third.querySelector('img')).toHaveAttribute('loading', 'lazy');
  });
});
