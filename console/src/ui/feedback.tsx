import type { ReactNode } from 'react';
import type { ApiError } from '../api';

/** An error shown as a banner (role=alert, so screen readers announce it). */
export function ErrorBanner(props: { error: ApiError | Error | string | undefined; title?: string }) {
  if (!props.error) return null;
  const text =
    typeof props.error === 'string' ? props.error : 'detail' in props.error ? props.error.detail : props.error.message;
  const status = typeof props.error === 'object' && 'status' in props.error ? props.error.status : undefined;
  return (
    <div className="banner banner-error" role="alert">
      {props.title && <strong>{props.title} </strong>}
      {text}
      {status === 403 && <span className="muted"> (refused by the API: 403)</span>}
    </div>
  );
}

export function Loading(props: { label?: string }) {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {props.label ?? 'Loading…'}
    </div>
  );
}

export function EmptyState(props: { title: string; children?: ReactNode }) {
  return (
    <div className="empty-state">
      <p className="empty-title">{props.title}</p>
      {props.children}
    </div>
  );
}

export function Notice(props: { children: ReactNode }) {
  return (
    <div className="banner banner-success" role="status">
      {props.children}
    </div>
  );
}
