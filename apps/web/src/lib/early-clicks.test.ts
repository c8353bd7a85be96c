import { describe, expect, it, vi } from 'vitest';
import { keepEarlyClicks } from './early-clicks';

function page(html: string) {
  document.body.innerHTML = `<div id="root">${html}</div><button id="outside">Out</button>`;
  return document.getElementById('root') as HTMLElement;
}

function later() {
  let run: () => void = () => {};
  return { whenRendered: (listener: () => void) => (run = listener), rendered: () => run() };
}

describe('keepEarlyClicks', () => {
  it('clicks the same button again once the app has taken the page over (hydrated)', async () => {
    const root = page('<main><button data-testid="cta">Sign up</button></main>');
    const app = later();
    keepEarlyClicks(root, app.whenRendered);
    const button = root.querySelector('button') as HTMLButtonElement;
    button.click();
    const handler = vi.fn();
    button.addEventListener('click', handler);
    app.rendered();
    await Promise.resolve();
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('clicks the button at the same place of a page rendered anew, when it is the same button', async () => {
    const root = page('<main><p>Hi</p><div><button data-testid="filters">Filters</button></div></main>');
    const app = later();
    keepEarlyClicks(root, app.whenRendered);
    (root.querySelector('button') as HTMLButtonElement).click();
    root.innerHTML = '<main><p>Hi</p><div><button data-testid="filters">Filters</button></div></main>';
    const handler = vi.fn();
    root.querySelector('button')?.addEventListener('click', handler);
    app.rendered();
    await Promise.resolve();
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('clicks nothing when the place holds another button now, for a click outside the page or on a link, or after the app runs', async () => {
    const root = page('<main><button data-testid="like">Like</button><a href="#x">Link</a></main>');
    const app = later();
    keepEarlyClicks(root, app.whenRendered);
    (root.querySelector('button') as HTMLButtonElement).click();
    root.innerHTML = '<main><button data-testid="block">Block</button><a href="#x">Link</a></main>';
    const handler = vi.fn();
    root.querySelector('button')?.addEventListener('click', handler);
    app.rendered();
    await Promise.resolve();
    expect(handler).not.toHaveBeenCalled();

    const second = later();
    keepEarlyClicks(root, second.whenRendered);
    (document.getElementById('outside') as HTMLButtonElement).click();
    (root.querySelector('a') as HTMLAnchorElement).click();
    second.rendered();
    (root.querySelector('button') as HTMLButtonElement).click();
    await Promise.resolve();
    // Only the click made after the app ran, by the test itself.
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('keeps no click once the app is taking the page over: React makes those itself', async () => {
    const root = page('<main><button data-testid="menu">EN</button></main>');
    const app = later();
    let takingOver = false;
    keepEarlyClicks(root, app.whenRendered, { isTakingOver: () => takingOver });
    const button = root.querySelector('button') as HTMLButtonElement;
    takingOver = true;
    button.click();
    const handler = vi.fn();
    button.addEventListener('click', handler);
    app.rendered();
    await Promise.resolve();
    expect(handler).not.toHaveBeenCalled();
  });
});
