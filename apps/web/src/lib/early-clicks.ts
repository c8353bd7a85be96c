/**
 * Clicks on a page the server rendered before the app has taken it over. A link works without the app and is left
 * to the browser; a button does nothing yet, so the last click on one is kept and made again once the app's first
 * render is on the screen (`whenRendered`): on the same element when the app hydrated the page, else on the
 * element at the same place in the app's render (a page React could not hydrate and rendered anew), if it is the
 * same button. Only until the app starts taking the page over (`isTakingOver`): from then on React keeps them.
 */
export function keepEarlyClicks(
  root: HTMLElement,
  whenRendered: (listener: () => void) => void,
  { isTakingOver = () => false, doc = document }: { isTakingOver?: () => boolean; doc?: Document } = {},
): void {
  let kept: { element: Element; path: number[]; text: string; testId: string | null } | null = null;
  const listener = (event: Event) => {
    // Once the app is taking the page over (hydrateRoot has been called), React keeps such a click itself and
    // handles it when it gets there: kept here too, it would be made twice (a menu opened and closed again).
    if (isTakingOver()) return;
    const target = event.target instanceof Element ? event.target : null;
    const button = target?.closest('button, [role="button"]');
    if (!button || !root.contains(button)) return;
    kept = { element: button, path: pathOf(root, button), text: button.textContent ?? '', testId: button.getAttribute('data-testid') };
  };
  doc.addEventListener('click', listener, true);
  whenRendered(() => {
    doc.removeEventListener('click', listener, true);
    if (!kept) return;
    const { element, path, text, testId } = kept;
    const target = element.isConnected ? element : elementAt(root, path);
    const isSame =
      target && target.tagName === element.tagName && target.getAttribute('data-testid') === testId && target.textContent === text;
    // After the render's effects, so the button's handlers are in place.
    if (isSame) queueMicrotask(() => (target as HTMLElement).click());
  });
}

/** The child indexes from `root` down to `element`. */
function pathOf(root: Element, element: Element): number[] {
  const path: number[] = [];
  for (let node: Element = element; node !== root && node.parentElement; node = node.parentElement) {
    path.unshift(Array.prototype.indexOf.call(node.parentElement.children, node));
  }
  return path;
}

function elementAt(root: Element, path: number[]): Element | null {
  let node: Element | null = root;
  for (const index of path) node = node?.children[index] ?? null;
  return node;
}
