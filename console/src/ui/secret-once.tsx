import { useState } from 'react';

/** A credential the API shows once (API key, agent credential, client secret): shown with a copy button. */
export function SecretOnce(props: { label: string; value: string; onDone?: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <section className="secret-once" aria-label={props.label}>
      <p>
        <strong>{props.label}</strong>: copy it now. It is shown this once and cannot be shown again.
      </p>
      <div className="secret-row">
        <code className="secret-value" data-secret>
          {props.value}
        </code>
        <button
          type="button"
          className="button"
          onClick={async () => {
            await navigator.clipboard?.writeText(props.value).catch(() => undefined);
            setCopied(true);
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
        {props.onDone && (
          <button type="button" className="button" onClick={props.onDone}>
            Done
          </button>
        )}
      </div>
      <span className="visually-hidden" aria-live="polite">
        {copied ? 'Copied to the clipboard' : ''}
      </span>
    </section>
  );
}
