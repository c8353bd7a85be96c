import { readFileSync } from 'node:fs';
import { DEFAULT_FICTIONAL_ICON } from '@amora/contracts/core';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { settingsFixture } from '@/testing/fixtures';
import { renderLander } from '@/testing/landers';
import { LanderFictionalIcon } from './lander-site';

/** The drawing of an SVG: its shapes' tags and attributes (attribute names as in the file), in order. */
function shapes(svg: Element): string[] {
  return [...svg.querySelectorAll('circle, path')].map(
    (shape) =>
      `${shape.tagName.toLowerCase()} ${[...shape.attributes]
        .map((a) => `${a.name}=${a.value}`)
        .sort()
        .join(' ')}`,
  );
}

describe('the fictional icon on a lander', () => {
  it('draws the default icon in the page, as public/fictional-icon.svg draws it, named by the site’s word', async () => {
    const settings = { ...settingsFixture(), fictional_icon: DEFAULT_FICTIONAL_ICON };
    const { container } = await renderLander(<LanderFictionalIcon size={22} />, { settings });
    const icon = screen.getByRole('img', { name: settings.fictional_singular });
    expect(icon.tagName.toLowerCase()).toBe('svg');
    expect(icon).toHaveAttribute('data-fictional-mark');
    expect(icon).toHaveAttribute('width', '22');
    expect(container.querySelector('img')).toBeNull();
    const file = new DOMParser().parseFromString(readFileSync('apps/web/public/fictional-icon.svg', 'utf8'), 'image/svg+xml');
    expect(shapes(icon)).toEqual(shapes(file.documentElement));
    expect(icon.getAttribute('viewBox')).toBe(file.documentElement.getAttribute('viewBox'));
  });

  it('leaves a decorative default icon out of what a screen reader reads', async () => {
    const settings = { ...settingsFixture(), fictional_icon: DEFAULT_FICTIONAL_ICON };
    const { container } = await renderLander(<LanderFictionalIcon size={16} isDecorative />, { settings });
    expect(screen.queryByRole('img')).toBeNull();
    expect(container.querySelector('svg[data-fictional-mark]')).toHaveAttribute('aria-hidden', 'true');
  });

  it('shows a site’s own icon as its image', async () => {
    const settings = { ...settingsFixture(), fictional_icon: '/sites/herz/fictional.png' };
    await renderLander(<LanderFictionalIcon size={20} />, { settings });
    const icon = screen.getByRole('img', { name: settings.fictional_singular });
    expect(icon).toHaveAttribute('src', '/sites/herz/fictional.png');
    expect(icon).toHaveAttribute('data-fictional-mark');
  });
});
