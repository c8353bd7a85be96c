import { createContext, useContext } from 'react';

export interface SignupOptions {
  /** The profile the visitor came from: signup then shows it (the /members/{id}/signup page on phones). */
  profileId?: number;
}

/** Provided by the signup modal of features/auth, which app/locale-root mounts around every page. */
export const OpenSignupContext = createContext<(options?: SignupOptions) => void>(() => {});

/** Opens signup: a modal on desktop, the /signup page on phones (spec §2). */
export function useOpenSignup(): (options?: SignupOptions) => void {
  return useContext(OpenSignupContext);
}
