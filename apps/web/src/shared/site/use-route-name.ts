import type { RouteName } from '@amora/contracts';
import { useMatches } from 'react-router';

export interface RouteHandle {
  name?: RouteName | 'not-found' | 'landers' | 'landers-tinderswipe';
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
