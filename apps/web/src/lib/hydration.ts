/**
 * Whether the app is taking over a page the server rendered (entry-server.tsx) and has not finished its first
 * render yet: what that render reads must be what the server knew, not what only the browser holds (its
 * storage). Set by app/start.tsx before hydrating; cleared by the first effect after it (app/locale-root.tsx).
 */
let hydrating = false;

export function isHydratingServerPage(): boolean {
  return hydrating;
}

export function setHydratingServerPage(value: boolean): void {
  hydrating = value;
}
