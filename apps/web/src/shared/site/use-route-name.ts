import type { RouteName } from '@amora/contracts';
import { useMatches } from 'react-router';
import type { RouteData } from './route-data';

export interface RouteHandle {
  name?: RouteName | 'not-found' | 'landers' | 'landers-tinderswipe';
  /** What the page (or a layout, for every page under it) shows on its first screen: see route-data.ts. */
  data?: RouteData;
}

/** The spec's route name of the page on screen (deepest match with a name). */
export function useRouteName(): RouteHandle['name'] | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const name = (matches[i].handle as RouteHandle | undefined)?.name;
    if (name) return name;
  }
  return undefined;
}
