import { type ReactNode, useEffect, useId, useRef, useState } from 'react';

interface MenuProps {
  label: ReactNode;
  children: (close: () => void) => ReactNode;
  testId?: string;
  buttonClassName?: string;
}

/** A small dropdown menu with Bootstrap's look: opens below its button, closes on outside click and Escape. */
export function Menu({ label, children, testId, buttonClassName = 'btn btn-outline-dark btn-sm dropdown-toggle' }: MenuProps) {
  const [isOpen, setIsOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!isOpen) return;
    const handlePointer = (event: MouseEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setIsOpen(false);
    };
    const handleKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setIsOpen(false);
        rootRef.current?.querySelector('button')?.focus();
      }
    };
    document.addEventListener('mousedown', handlePointer);
    document.addEventListener('keydown', handleKey);
    rootRef.current?.querySelector<HTMLElement>('.dropdown-item')?.focus();
    return () => {
      document.removeEventListener('mousedown', handlePointer);
      document.removeEventListener('keydown', handleKey);
    };
  }, [isOpen]);

  const close = () => setIsOpen(false);
  return (
    <div className="dropdown" ref={rootRef}>
      <button
        type="button"
        className={buttonClassName}
        aria-expanded={isOpen}
        aria-controls={menuId}
        onClick={() => setIsOpen((open) => !open)}
        data-testid={testId}
      >
        {label}
      </button>
      <ul id={menuId} className={`dropdown-menu dropdown-menu-end${isOpen ? ' show' : ''}`} style={{ right: 0, left: 'auto' }}>
        {isOpen && children(close)}
      </ul>
    </div>
  );
}
