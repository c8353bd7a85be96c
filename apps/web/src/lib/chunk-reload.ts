import { CHUNK_RELOAD_INTERVAL_MS, CHUNK_RELOAD_STORAGE_KEY } from '@amora/contracts/core';
import { session } from './storage';

export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error ?? '');
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported|Failed to fetch dynamically/i.test(
    message,
  );
}

/** After a deploy old chunks vanish: reload once, at most once per 60 s (spec §8). Returns whether it reloads. */
export function reloadForChunkError(): boolean {
  const last = Number(session.get(CHUNK_RELOAD_STORAGE_KEY) ?? 0);
  if (Date.now() - last < CHUNK_RELOAD_INTERVAL_MS) return false;
  session.set(CHUNK_RELOAD_STORAGE_KEY, String(Date.now()));
  window.location.reload();
  return true;
}

export function installChunkReload(): void {
  window.addEventListener('vite:preloadError', (event) => {
    if (reloadForChunkError()) event.preventDefault();
  });
}
