import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

type ToastVariant = 'success' | 'danger' | 'info';

export interface ToastOptions {
  message: ReactNode;
  variant?: ToastVariant;
  /** How long it stays, in ms (default 5 s); 0 keeps it until it is closed. */
  duration?: number;
  testId?: string;
}

interface ToastItem extends Required<Omit<ToastOptions, 'testId'>> {
  id: number;
  testId?: string;
}

export interface ToastApi {
  /** Shows a toast and returns its id. A plain text is a success message. */
  show: (toast: ToastOptions | string) => number;
  dismiss: (id: number) => void;
}

export const TOAST_DURATION_MS = 5000;
/** At most this many at once: a new one pushes the oldest out. */
export const TOAST_LIMIT = 3;

const ToastContext = createContext<ToastApi | null>(null);

/**
 * Toasts: short messages after an action (saved, sent, failed) that go by themselves. Newest on top, up to
 * three; top right from md up, at most 350 px wide (spec §9); under the top edge on phones. They are read out:
 * the stack is a polite live region that exists before any toast, and an error toast is an alert.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  const show = useCallback((toast: ToastOptions | string) => {
    const options = typeof toast === 'string' ? { message: toast } : toast;
    const item: ToastItem = {
      id: nextId.current++,
      message: options.message,
      variant: options.variant ?? 'success',
      duration: options.duration ?? TOAST_DURATION_MS,
      testId: options.testId,
    };
    setToasts((list) => [item, ...list].slice(0, TOAST_LIMIT));
    return item.id;
  }, []);
  const api = useMemo(() => ({ show, dismiss }), [show, dismiss]);

  return (
    <ToastContext.Provider value={api}>
      {children}
      <ToastStack toasts={toasts} onDismiss={dismiss} />
    </ToastContext.Provider>
  );
}

function ToastStack({ toasts, onDismiss }: { toasts: ToastItem[]; onDismiss: (id: number) => void }) {
  const { t } = useTranslation();
  return (
    <section className="toast-stack" aria-live="polite" aria-label={t('ui.notifications')} data-testid="toasts">
      {toasts.map((toast) => (
        <Toast key={toast.id} toast={toast} onDismiss={onDismiss} />
      ))}
    </section>
  );
}

function Toast({ toast, onDismiss }: { toast: ToastItem; onDismiss: (id: number) => void }) {
  const { t } = useTranslation();
  const [isPaused, setIsPaused] = useState(false);
  const { id, duration } = toast;

  useEffect(() => {
    if (duration <= 0 || isPaused) return;
    const timer = window.setTimeout(() => onDismiss(id), duration);
    return () => window.clearTimeout(timer);
  }, [id, duration, isPaused, onDismiss]);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a status or alert; pausing on hover and focus only keeps it from going while read
    <div
      className={`toast show toast-${toast.variant}`}
      role={toast.variant === 'danger' ? 'alert' : 'status'}
      aria-atomic="true"
      data-testid={toast.testId ?? 'toast'}
      // A toast someone is reading or about to close stays until they leave it.
      onMouseEnter={() => setIsPaused(true)}
      onMouseLeave={() => setIsPaused(false)}
      onFocus={() => setIsPaused(true)}
      onBlur={() => setIsPaused(false)}
    >
      <div className="toast-body">{toast.message}</div>
      <button type="button" className="btn-close" aria-label={t('common.close')} onClick={() => onDismiss(id)} />
    </div>
  );
}

/** The toasts of the page: `const toast = useToast(); toast.show(t('profile.saved'))`. */
export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast needs a <ToastProvider> above it');
  return api;
}
