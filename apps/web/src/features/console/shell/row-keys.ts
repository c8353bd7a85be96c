import type { KeyboardEvent } from 'react';

/** A console table's rows: arrow keys (and j / k) move between the rows' links (`data-row-link`); Enter opens one. */
export function moveBetweenRows(event: KeyboardEvent<HTMLTableSectionElement>) {
  const step = event.key === 'ArrowDown' || event.key === 'j' ? 1 : event.key === 'ArrowUp' || event.key === 'k' ? -1 : 0;
  if (!step) return;
  const links = Array.from(event.currentTarget.querySelectorAll<HTMLAnchorElement>('a[data-row-link]'));
  const at = links.indexOf(document.activeElement as HTMLAnchorElement);
  const next = links[Math.min(links.length - 1, Math.max(0, at + step))];
  if (next) {
    event.preventDefault();
    next.focus();
  }
}
