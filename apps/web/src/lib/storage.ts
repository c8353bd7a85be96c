/** localStorage that never throws (private mode, storage disabled). */
export const storage = {
  get(key: string): string | null {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: string, value: string): void {
    try {
      window.localStorage.setItem(key, value);
    } catch {
      // storage unavailable: the choice lasts for this page only
    }
  },
  remove(key: string): void {
    try {
      window.localStorage.removeItem(key);
    } catch {
      // storage unavailable: nothing was kept
    }
  },
  /** Dismissals store the time they happened (spec §4). */
  dismiss(key: string): void {
    storage.set(key, String(Date.now()));
  },
  isDismissed(key: string): boolean {
    return storage.get(key) !== null;
  },
};

export const session = {
  get(key: string): string | null {
    try {
      return window.sessionStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: string, value: string): void {
    try {
      window.sessionStorage.setItem(key, value);
    } catch {
      // ignore
    }
  },
};
