import { act, fireEvent } from '@testing-library/react';

/**
 * Escape as a browser handles it for a modal <dialog> (HTML "close requests"), which happy-dom does not do:
 * the keydown goes to the focused element; when nobody prevents it, the topmost open dialog gets a
 * cancelable `cancel` event, and closes unless a listener prevents that.
 */
export async function pressEscape({ isRefusable = true }: { isRefusable?: boolean } = {}): Promise<void> {
  const target = document.activeElement ?? document.body;
  const isKeyAllowed = fireEvent.keyDown(target, { key: 'Escape', code: 'Escape' });
  const dialogs = document.querySelectorAll<HTMLDialogElement>('dialog[open]');
  const dialog = dialogs[dialogs.length - 1];
  if (!isKeyAllowed || !dialog) return;
  await act(async () => {
    if (!isRefusable || dialog.dispatchEvent(new Event('cancel', { cancelable: true }))) dialog.close();
  });
}

/**
 * A second Escape without a click or key press on the page in between: browsers let a page refuse only one
 * Escape per user action, so this one closes the <dialog> without a `cancel` event (only `close`).
 */
export function pressEscapeAgain(): Promise<void> {
  return pressEscape({ isRefusable: false });
}

/** A modal is open when its <dialog> is on the page with the open attribute (what a member sees). */
export function isDialogOpen(element: Element | null): boolean {
  return element instanceof HTMLDialogElement && element.isConnected && element.open;
}
