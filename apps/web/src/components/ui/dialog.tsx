import { type ReactNode, type SyntheticEvent, useCallback } from 'react';

/**
 * Whether the open dialog is a modal. A browser without `:modal` cannot tell: an open dialog at mount is then
 * the server's (a dialog this component shows is shown as it mounts), so not one.
 */
function isModal(dialog: HTMLDialogElement): boolean {
  try {
    return dialog.matches(':modal');
  } catch {
    return false;
  }
}

interface DialogProps {
  isOpen: boolean;
  labelledBy: string;
  children: ReactNode;
  /** When false, neither Escape nor a click on the backdrop closes it (the entry warning must be answered). */
  isDismissible?: boolean;
  onClose?: () => void;
  testId?: string;
  size?: 'sm' | 'lg';
  /** Extra classes of the <dialog> (a Sheet passes 'app-sheet'). */
  className?: string;
}

/**
 * A modal on the native <dialog> element: the browser keeps focus inside, makes the page behind it inert,
 * puts it on the top layer and gives focus back to where it was on close, so the first page needs no modal
 * library. Styled with Bootstrap's classes.
 *
 * The element exists only while the dialog is open: it is shown as it mounts and closed as it unmounts, and
 * Escape arrives through the element's own `cancel`/`close` props, so every opening has its handlers.
 */
export function Dialog({ isOpen, labelledBy, children, isDismissible = true, onClose, testId, size, className }: DialogProps) {
  const attach = useCallback((dialog: HTMLDialogElement | null) => {
    if (!dialog) return;
    // Rendered on the server it came open but not modal (the first screen shows it before any script ran).
    if (dialog.open && !isModal(dialog)) dialog.close();
    if (!dialog.open) dialog.showModal();
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      if (dialog.open) dialog.close();
    };
  }, []);

  if (!isOpen) return null;

  const handleCancel = (event: SyntheticEvent<HTMLDialogElement>) => {
    event.preventDefault();
    if (isDismissible) onClose?.();
  };
  // The browser honours a refused Escape only once per user action: the next one closes the dialog anyway.
  // Still open for us, so it is either closed for real or shown again.
  const handleNativeClose = (event: SyntheticEvent<HTMLDialogElement>) => {
    const dialog = event.currentTarget;
    if (!dialog.isConnected || dialog.open) return;
    if (isDismissible && onClose) onClose();
    else dialog.showModal();
  };

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: Escape is handled by the dialog's cancel event
    <dialog
      ref={attach}
      className={className ? `app-dialog ${className}` : 'app-dialog'}
      aria-labelledby={labelledBy}
      aria-modal="true"
      // On the server only: the page paints with it open; the browser then shows it as a modal (attach).
      open={typeof window === 'undefined' ? true : undefined}
      data-testid={testId}
      onCancel={handleCancel}
      onClose={handleNativeClose}
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
