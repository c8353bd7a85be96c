import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from './dialog';

export interface SheetProps {
  isOpen: boolean;
  onClose: () => void;
  /** The sheet's title (its accessible name too). */
  title: ReactNode;
  children: ReactNode;
  /** Buttons at the bottom. */
  footer?: ReactNode;
  testId?: string;
}

/**
 * A bottom sheet on phones (it rises from the bottom edge, within thumb reach, and clears the home indicator),
 * a centred dialog from md up. A Dialog underneath: focus kept inside, Escape and a tap beside it close it.
 */
export function Sheet({ isOpen, onClose, title, children, footer, testId }: SheetProps) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Dialog isOpen={isOpen} onClose={onClose} labelledBy={titleId} testId={testId} className="app-sheet">
      <div className="modal-header">
        <h2 className="modal-title h5" id={titleId}>
          {title}
        </h2>
        <button type="button" className="btn-close" aria-label={t('common.close')} onClick={onClose} />
      </div>
      <div className="modal-body">{children}</div>
      {footer && <div className="modal-footer">{footer}</div>}
    </Dialog>
  );
}
