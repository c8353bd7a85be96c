import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderInRoute } from '@/testing/render';
import { text } from '@/testing/text';
import { PhotoGallery } from './photo-gallery';

const photos = [
  { id: 1, is_locked: false, url: '/photos/1.webp', thumb_url: '/photos/1-thumb.webp' },
  { id: 2, is_locked: true, url: '/photos/2-blur.webp', thumb_url: '/photos/2-blur-thumb.webp' },
  { id: 3, is_locked: false, url: '/photos/3.webp', thumb_url: '/photos/3-thumb.webp' },
];

describe('PhotoGallery', () => {
  it('shows every photo big, the first at once and first of all; a locked one keeps the premium message and leads to Premium', async () => {
    await renderInRoute(<PhotoGallery name="Noor" photos={photos} />, { path: '/members/7', routeName: 'members-id' });
    const gallery = await screen.findByRole('region', { name: text('member.photos', { name: 'Noor' }) });
    const [first, locked, third] = within(gallery).getAllByRole('group');
    expect(first).toHaveAttribute('data-testid', 'open-photo');
    expect(within(first).getByRole('img')).toHaveAttribute('fetchpriority', 'high');
    expect(within(first).getByRole('img')).toHaveAttribute('loading', 'eager');
    expect(locked).toHaveAttribute('data-testid', 'locked-photo');
    expect(locked).toHaveTextContent(text('member.premiumOnly'));
    expect(within(locked).getByRole('link', { name: text('credits.navPremium') })).toHaveAttribute('href', '/premium');
    expect(within(third).getByRole('img')).toHaveAttribute('loading', 'lazy');
    expect(within(third).getByRole('img')).not.toHaveAttribute('fetchpriority');
    // The thumbnails are buttons, not photos of the profile: the photos are counted once.
    expect(screen.getAllByTestId(/^(open|locked)-photo$/)).toHaveLength(3);
  });

  it('moves with the arrows, the thumbnails and the keyboard', async () => {
    const { user } = await renderInRoute(<PhotoGallery name="Noor" photos={photos} />, { path: '/members/7', routeName: 'members-id' });
    const previous = await screen.findByRole('button', { name: text('member.previousPhoto') });
    const next = screen.getByRole('button', { name: text('member.nextPhoto') });
    const thumb = (n: number) => screen.getByRole('button', { name: text('member.photoNumber', { index: n, total: 3 }) });
    expect(previous).toBeDisabled();
    expect(thumb(1)).toHaveAttribute('aria-current', 'true');
    await user.click(next);
    expect(thumb(2)).toHaveAttribute('aria-current', 'true');
    await user.click(thumb(3));
    expect(next).toBeDisabled();
    const track = screen.getByTestId('photo-gallery');
    track.focus();
    await user.keyboard('{ArrowLeft}');
    expect(thumb(2)).toHaveAttribute('aria-current', 'true');
    await user.keyboard('{Home}');
    expect(thumb(1)).toHaveAttribute('aria-current', 'true');
  });

  it('a single photo has no arrows, and no photo shows the drawn placeholder', async () => {
    await renderInRoute(<PhotoGallery name="Noor" photos={[]} empty={<p>none</p>} />, { path: '/members/7', routeName: 'members-id' });
    expect(await screen.findByTestId('photo-placeholder')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: text('member.nextPhoto') })).toBeNull();
    expect(screen.getByText('none')).toBeVisible();
  });
});
