import { useEffect, useId, useRef, type ReactNode } from 'react';

interface Props {
  readonly open: boolean;
  readonly title: string;
  readonly onClose: () => void;
  readonly children: ReactNode;
  readonly testId?: string;
}

/**
 * The element that last had focus (not the page's body). A button that starts a dialog is often
 * disabled while the dialog's content is fetched, which drops focus to <body>; the dialog then
 * returns focus to that button.
 */
let lastFocused: HTMLElement | null = null;
if (typeof document !== 'undefined') {
  document.addEventListener(
    'focusin',
    (e) => {
      if (
        e.target instanceof HTMLElement &&
        e.target !== document.body &&
        !e.target.closest('dialog')
      )
        lastFocused = e.target;
    },
    true,
  );
}

function opener(): HTMLElement | null {
  const active = document.activeElement;
  return active instanceof HTMLElement && active !== document.body ? active : lastFocused;
}

/**
 * A modal dialog on the native <dialog> element: showModal() makes the rest of the page inert (the
 * focus stays inside), Escape closes it, and focus returns to the element that opened it.
 */
export function Dialog({ open, title, onClose, children, testId }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      const back = opener();
      dialog.showModal();
      return () => {
        if (back?.isConnected) back.focus();
      };
    }
    if (!open && dialog.open) dialog.close();
    return undefined;
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      data-testid={testId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      {open && (
        <>
          <h2 id={titleId}>{title}</h2>
          {children}
        </>
      )}
    </dialog>
  );
}
