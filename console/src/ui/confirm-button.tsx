import { type ReactNode, useRef, useState } from 'react';
import { ErrorBanner } from './feedback';

/**
 * A button that asks before it acts (destructive actions): a modal dialog (native <dialog>: focus stays inside,
 * Escape cancels) with the question, Cancel (focused first) and the confirming button. An error from the action
 * shows inside the dialog.
 */
export function ConfirmButton(props: {
  label: string;
  /** The question, e.g. "Revoke this session? The device is signed out at once." */
  question: ReactNode;
  confirmLabel?: string;
  onConfirm: () => Promise<void> | void;
  danger?: boolean;
  /** Accessible name when `label` alone is ambiguous in a table ("Revoke session on Firefox"). */
  ariaLabel?: string;
  disabled?: boolean;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState<Error | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const danger = props.danger ?? true;
  return (
    <>
      <button
        type="button"
        className={danger ? 'button danger' : 'button'}
        aria-label={props.ariaLabel}
        disabled={props.disabled}
        onClick={() => {
          setError(undefined);
          dialog.current?.showModal();
        }}
      >
        {props.label}
      </button>
      <dialog ref={dialog} className="dialog" aria-label={props.ariaLabel ?? props.label}>
        <form
          method="dialog"
          onSubmit={async (event) => {
            event.preventDefault();
            setBusy(true);
            setError(undefined);
            try {
              await props.onConfirm();
              dialog.current?.close();
            } catch (reason) {
              setError(reason instanceof Error ? reason : new Error(String(reason)));
            } finally {
              setBusy(false);
            }
          }}
        >
          <div className="dialog-body">{props.question}</div>
          {error && <ErrorBanner error={error} />}
          <div className="form-actions">
            <button type="button" className="button" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
            <button type="submit" className={danger ? 'button danger' : 'button primary'} disabled={busy}>
              {busy ? 'Working…' : (props.confirmLabel ?? props.label)}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
