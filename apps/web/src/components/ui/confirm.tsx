import { createContext, type ReactNode, useCallback, useContext, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './button';
import { Dialog } from './dialog';

interface ConfirmOptions {
  title: ReactNode;
  message?: ReactNode;
  /** The confirming button's text (default "OK" in the page's language). */
  confirmLabel?: ReactNode;
  cancelLabel?: ReactNode;
  /** A red confirming button, for what cannot be undone (block, delete). */
  isDanger?: boolean;
}

export type Confirm = (options: ConfirmOptions) => Promise<boolean>;

const ConfirmContext = createContext<Confirm | null>(null);

interface Pending extends ConfirmOptions {
  resolve: (answer: boolean) => void;
}

/**
 * Confirmations as a promise: `if (await confirm({ title, isDanger: true })) block()`. One dialog at a time;
 * Cancel, Escape and a click beside it answer false, and the focus starts on Cancel, so a hurried Enter does
 * nothing harmful.
 */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [pending, setPending] = useState<Pending | null>(null);
  const pendingRef = useRef<Pending | null>(null);
  const { t } = useTranslation();
  const titleId = useId();

  const confirm = useCallback<Confirm>(
    (options) =>
      new Promise<boolean>((resolve) => {
        pendingRef.current?.resolve(false);
        const next = { ...options, resolve };
        pendingRef.current = next;
        setPending(next);
      }),
    [],
  );
  const answer = (value: boolean) => {
    pendingRef.current?.resolve(value);
    pendingRef.current = null;
    setPending(null);
  };

  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      <Dialog isOpen={pending !== null} onClose={() => answer(false)} labelledBy={titleId} size="sm" testId="confirm-dialog">
        {pending && (
          <>
            <div className="modal-header border-0 pb-0">
              <h2 className="modal-title h5" id={titleId}>
                {pending.title}
              </h2>
            </div>
            {pending.message && <div className="modal-body">{pending.message}</div>}
            <div className="modal-footer border-0">
              <Button variant="light" onClick={() => answer(false)} data-autofocus testId="confirm-cancel">
                {pending.cancelLabel ?? t('common.cancel')}
              </Button>
              <Button variant={pending.isDanger ? 'danger' : 'primary'} onClick={() => answer(true)} testId="confirm-ok">
                {pending.confirmLabel ?? t('ui.ok')}
              </Button>
            </div>
          </>
        )}
      </Dialog>
    </ConfirmContext.Provider>
  );
}

/** The page's confirm(): resolves true when the member confirms, false otherwise. */
export function useConfirm(): Confirm {
  const confirm = useContext(ConfirmContext);
  if (!confirm) throw new Error('useConfirm needs a <ConfirmProvider> above it');
  return confirm;
}
