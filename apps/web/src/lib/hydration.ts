/**
 * Whether the app is taking over a page the server rendered (entry-server.tsx) and has not finished its first
 * render yet: what that render reads must be what the server knew, not what only the browser holds (its
 * storage). Set by app/start.tsx before hydrating; cleared when the takeover ends (endTakeover).
 */
let hydrating = false;

export function isHydratingServerPage(): boolean {
  return hydrating;
}

export function setHydratingServerPage(value: boolean): void {
  hydrating = value;
}

/** A page body hydrated in a pass of its own (app/layouts/page-outlet.tsx) is still to come. */
let bodyPending = false;

/** The layout's page body will be hydrated after the shell (page-outlet.tsx): the takeover ends with it. */
export function holdTakeover(): void {
  if (hydrating) bodyPending = true;
}

/**
 * The app's first render is on the screen: the first effect of the route tree (app/locale-root.tsx), or, when the
 * page body is hydrated after the shell, that body's (`isBody`). The page is the app's from then on.
 */
export function endTakeover(isBody = false): void {
  if (bodyPending && !isBody) return;
  bodyPending = false;
  hydrating = false;
  markAppRendered();
}

let rendered = false;
const renderedListeners = new Set<() => void>();

/** The app's first render is on the screen (app/locale-root.tsx, after its first commit): the page is the app's. */
function markAppRendered(): void {
  if (rendered) return;
  rendered = true;
  // Said on the page too: automated journeys wait for it before they run a page's clock.
  document.documentElement.setAttribute('data-app-ready', '');
  for (const listener of renderedListeners) listener();
  renderedListeners.clear();
}

/** Calls `listener` once the app's first render is on the screen (at once if it is). */
export function onAppRendered(listener: () => void): void {
  if (rendered) listener();
  else renderedListeners.add(listener);
}
