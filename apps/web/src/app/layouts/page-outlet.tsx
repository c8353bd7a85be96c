import { Suspense, useEffect } from 'react';
import { Outlet } from 'react-router';
import { endTakeover, holdTakeover } from '@/lib/hydration';

/**
 * The page under a layout, in a Suspense boundary of its own. Taking over a page the server rendered, React
 * hydrates the shell (bars, banners, footer) and commits it first, then the page body in a pass of its own (a
 * boundary the server rendered is hydrated at a lower priority), so no single task of the browser holds both
 * renders, commits and effects; the takeover ends once the body is in (lib/hydration.ts). Rendered in the
 * browser from the start, a body still waiting for its data holds a screen's height, so the footer does not
 * flash up under the top bar before it.
 */
export function PageOutlet() {
  // Runs before the first effect of the routes above it (LocaleRoot's): children's effects come first.
  useEffect(holdTakeover, []);
  return (
    <Suspense fallback={<div aria-busy="true" style={{ minHeight: '100vh' }} />}>
      <Outlet />
      <BodyTakenOver />
    </Suspense>
  );
}

function BodyTakenOver() {
  useEffect(() => endTakeover(true), []);
  return null;
}
