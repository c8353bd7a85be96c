import { createContext, useContext } from 'react';

export interface ShownMatch {
  /** 'match': we like each other; 'liked': this profile likes me (the auto-like). */
  kind: 'match' | 'liked';
  id: number;
  name: string;
  isFictional: boolean;
  /** The profile's main image, `match` variant when known (a thumb otherwise). */
  imageUrl: string | null;
}

/** Provided by the match modal of features/likes, which app/locale-root mounts around every page. */
export const ShowMatchContext = createContext<(match: ShownMatch) => void>(() => {});

/** Opens the match modal (spec §2) with a profile. */
export function useShowMatch(): (match: ShownMatch) => void {
  return useContext(ShowMatchContext);
}
