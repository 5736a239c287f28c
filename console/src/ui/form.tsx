import { createContext, type ReactNode, useContext, useEffect, useId, useRef, useState } from 'react';
import { ApiError } from '../api';
import { ErrorBanner } from './feedback';

interface FormState {
  error: ApiError | Error | undefined;
  register(name: string): () => void;
}
const FormContext = createContext<FormState | undefined>(undefined);

/**
 * What a `Form` hands its `onSubmit`: the text of each field it holds, by name ('' when left empty; the values of a
 * repeated name joined by newlines). A checkbox left unchecked, or a field not rendered, is absent. Name the
 * fields every submit holds (`FormValues<'email' | 'role'>`) and they read as `string`, so a body built from them
 * can be checked against the route's (`satisfies Body<…>`). A select's choice is cast to the route's union there:
 * the API, not the console, judges what it accepts, and names the field when it refuses.
 */
export type FormValues<Always extends string = never> = Record<string, string | undefined> & Record<Always, string>;

/**
 * A form whose submit calls the API. A 422 naming a field rendered by a `Field` of this form shows its detail
 * next to that field (and focuses it); any other error shows as a banner above the buttons.
 */
export function Form<Always extends string = never>(props: {
  onSubmit: (values: FormValues<Always>) => Promise<void> | void;
  submitLabel: string;
  children: ReactNode;
  /** Accessible name of the form. */
  label?: string;
  danger?: boolean;
  secondary?: ReactNode;
}) {
  const [error, setError] = useState<ApiError | Error | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const fields = useRef(new Set<string>());
  const formRef = useRef<HTMLFormElement>(null);
  const state: FormState = {
    error,
    register(name) {
      fields.current.add(name);
      return () => fields.current.delete(name);
    },
  };
  const fieldError = error instanceof ApiError && error.field && fields.current.has(error.field);

  useEffect(() => {
    if (error instanceof ApiError && error.field && fields.current.has(error.field)) {
      formRef.current?.querySelector<HTMLElement>(`[name="${error.field}"]`)?.focus();
    }
  }, [error]);

  return (
    <FormContext.Provider value={state}>
      <form
        ref={formRef}
        className="form"
        aria-label={props.label}
        noValidate={false}
        onSubmit={async (event) => {
          event.preventDefault();
          const values: Record<string, string> = {};
          for (const [key, value] of new FormData(event.currentTarget)) {
            if (typeof value === 'string') values[key] = values[key] === undefined ? value : `${values[key]}\n${value}`;
          }
          setBusy(true);
          setError(undefined);
          try {
            await props.onSubmit(values as FormValues<Always>);
          } catch (reason) {
            setError(reason instanceof Error ? reason : new Error(String(reason)));
          } finally {
            setBusy(false);
          }
        }}
      >
        {props.children}
        {error && !fieldError && <ErrorBanner error={error} />}
        <div className="form-actions">
          <button type="submit" className={props.danger ? 'button danger' : 'button primary'} disabled={busy}>
            {busy ? 'Working…' : props.submitLabel}
          </button>
          {props.secondary}
        </div>
      </form>
    </FormContext.Provider>
  );
}

export interface FieldProps {
  /** The API's field name: a 422 naming it shows here. */
  name: string;
  label: string;
  type?: 'text' | 'email' | 'password' | 'number' | 'url' | 'search' | 'date' | 'datetime-local';
  defaultValue?: string;
  required?: boolean;
  hint?: ReactNode;
  placeholder?: string;
  autoComplete?: string;
  /** A select instead of an input. */
  options?: { value: string; label: string }[];
  /** A textarea instead of an input. */
  multiline?: boolean;
  readOnly?: boolean;
}

export function Field(props: FieldProps) {
  const form = useContext(FormContext);
  const id = useId();
  useEffect(() => form?.register(props.name), [form?.register, props.name]);
  const error = form?.error instanceof ApiError && form.error.field === props.name ? form.error.detail : undefined;
  const describedBy =
    [props.hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name: props.name,
    required: props.required,
    defaultValue: props.defaultValue,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    readOnly: props.readOnly,
  };
  return (
    <div className={error ? 'field field-invalid' : 'field'}>
      <label htmlFor={id}>
        {props.label}
        {props.required && <span className="muted"> (required)</span>}
      </label>
      {props.options ? (
        <select {...common}>
          {props.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      ) : props.multiline ? (
        <textarea {...common} placeholder={props.placeholder} rows={4} />
      ) : (
        <input
          {...common}
          type={props.type ?? 'text'}
          placeholder={props.placeholder}
          autoComplete={props.autoComplete}
        />
      )}
      {props.hint && (
        <p id={`${id}-hint`} className="hint">
          {props.hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
