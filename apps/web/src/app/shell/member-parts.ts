import { useEffect, useSyncExternalStore } from 'react';

type MemberShell = typeof import('./member-shell');

let loaded: MemberShell | null = null;
let loading: Promise<MemberShell> | null = null;
const listeners = new Set<() => void>();

/**
 * Loads the member-only parts of the shell (member-shell.tsx), once. The boot waits for them when the page is a
 * member's (the server preloads the chunk with it); a visitor gets them when logging in or signing up.
 */
export function loadMemberShell(): Promise<MemberShell> {
  loading ??= import('./member-shell').then(
    (module) => {
      loaded = module;
      for (const listener of listeners) listener();
      return module;
    },
    (error: unknown) => {
      // Asked for again next time (a failed chunk after a deploy reloads the page: lib/chunk-reload.ts).
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** Starts loading the member parts without waiting for them (a visitor about to log in or sign up). */
export function prefetchMemberShell(): void {
  loadMemberShell().catch(() => {});
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const snapshot = () => loaded;

/**
 * The member parts for a member's page (`isMember`), null for a visitor's and until they are in: loaded at once
 * when they are not yet (a visitor who just logged in). Synchronous when the boot already loaded them, so the
 * first render of a member's page has them.
 */
export function useMemberShell(isMember: boolean): MemberShell | null {
  const shell = useSyncExternalStore(subscribe, snapshot, snapshot);
  useEffect(() => {
    if (isMember && !loaded) prefetchMemberShell();
  }, [isMember]);
  return isMember ? shell : null;
}
