import { type ReactNode, useEffect, useRef } from 'react';

interface DialogProps {
  isOpen: boolean;
  labelledBy: string;
  children: ReactNode;
  /** When false, Escape does not close it (the entry warning must be answered). */
  isDismissible?: boolean;
  onClose?: () => void;
  testId?: string;
  size?: 'sm' | 'lg';
}

/**
 * A modal on the native <dialog> element: the browser keeps focus inside, makes the page behind it inert
 * and puts it on the top layer, so the first page needs no modal library. Styled with Bootstrap's classes.
 */
export function Dialog({ isOpen, labelledBy, children, isDismissible = true, onClose, testId, size }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (isOpen && !dialog.open) {
      dialog.showModal();
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    if (!isOpen && dialog.open) dialog.close();
  }, [isOpen]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const handleCancel = (event: Event) => {
      event.preventDefault();
      if (isDismissible) onClose?.();
    };
    dialog.addEventListener('cancel', handleCancel);
    return () => dialog.removeEventListener('cancel', handleCancel);
  }, [isDismissible, onClose]);

  if (!isOpen) return null;
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: Escape is handled by the dialog's cancel event
    <dialog
      ref={ref}
      className="app-dialog"
      aria-labelledby={labelledBy}
      aria-modal="true"
      data-testid={testId}
      onClick={(event) => {
        // A click on the backdrop lands on the <dialog> itself, outside its content box.
        if (event.target === event.currentTarget && isDismissible) onClose?.();
      }}
    >
      <div className="modal d-block position-static h-auto overflow-visible">
        <div className={`modal-dialog m-0${size ? ` modal-${size}` : ''}`}>
          <div className="modal-content">{children}</div>
        </div>
      </div>
    </dialog>
  );
}
