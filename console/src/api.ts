import { useCallback, useEffect, useState } from 'react';
import type { paths } from './api-schema';
import { currentTokens, renew } from './auth';

/**
 * The console's only way to the service: the public /api/v1 API with the signed-in person's bearer token.
 * Errors arrive as `{"detail": "..."}`; a 422 whose detail starts with a field name (`email: must be ...`,
 * `redirect_uris.0: ...`) names that field, which forms show next to their input.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly detail: string;
  readonly field: string | undefined;

  constructor(status: number, detail: string) {
    super(detail);
    this.name = 'ApiError';
    this.status = status;
    this.detail = detail;
    this.field = status === 422 ? fieldOf(detail) : undefined;
  }
}

/** `name: must be ...` -> `name`; `redirect_uris.2: ...` -> `redirect_uris`; `body/email ...` -> `email`. */
export function fieldOf(detail: string): string | undefined {
  const named = /^([A-Za-z_][A-Za-z0-9_]*)(?:[.[/][^:\s]*)?:\s/.exec(detail);
  if (named) return named[1];
  const pointer = /^\/?body\/([A-Za-z_][A-Za-z0-9_]*)/.exec(detail);
  return pointer?.[1];
}

export interface ApiOptions {
  /** Extra query parameters (undefined values are left out). */
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

const BASE = '/api/v1';

function urlOf(path: string, query?: ApiOptions['query']): string {
  const url = new URL(BASE + (path.startsWith('/') ? path : `/${path}`), location.origin);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== '') url.searchParams.set(key, String(value));
  }
  return url.pathname + url.search;
}

async function send(method: string, path: string, body: unknown, opts: ApiOptions): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  const token = currentTokens()?.accessToken;
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return fetch(urlOf(path, opts.query), {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'omit',
    signal: opts.signal,
  });
}

/** Calls `/api/v1<path>`; renews the access token once on 401 and retries. Throws ApiError on any non-2xx. */
export async function api<T>(method: string, path: string, body?: unknown, opts: ApiOptions = {}): Promise<T> {
  const sentWith = currentTokens()?.accessToken;
  let response = await send(method, path, body, opts);
  if (response.status === 401 && currentTokens()?.refreshToken) {
    // Parallel requests refused with one expired token share one renewal: a request whose token was already
    // replaced while it was out retries with the new one instead of rotating the refresh token again.
    const renewed = currentTokens()?.accessToken !== sentWith || (await renew());
    if (renewed) response = await send(method, path, body, opts);
  }
  if (!response.ok) {
    const answer = (await response.json().catch(() => undefined)) as { detail?: unknown } | undefined;
    const detail = typeof answer?.detail === 'string' ? answer.detail : `${response.status} ${response.statusText}`;
    throw new ApiError(response.status, detail);
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export interface ApiState<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload: () => void;
}

/** GET `path` (with `query`) when the component mounts and whenever either changes; `null` path: no request. */
export function useApi<T>(path: string | null, query?: ApiOptions['query']): ApiState<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<ApiError | undefined>(undefined);
  const [loading, setLoading] = useState(path !== null);
  const [generation, setGeneration] = useState(0);
  const queryKey = JSON.stringify(query ?? {});

  // biome-ignore lint/correctness/useExhaustiveDependencies: queryKey stands for query; generation forces reload.
  useEffect(() => {
    if (path === null) return;
    const controller = new AbortController();
    setLoading(true);
    setError(undefined);
    api<T>('GET', path, undefined, { query, signal: controller.signal })
      .then((value) => {
        setData(value);
        setLoading(false);
      })
      .catch((reason: unknown) => {
        if (controller.signal.aborted) return;
        setError(reason instanceof ApiError ? reason : new ApiError(0, String((reason as Error)?.message ?? reason)));
        setLoading(false);
      });
    return () => controller.abort();
  }, [path, queryKey, generation]);

  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  return { data, error, loading, reload };
}

// The API's shapes, generated from the service's OpenAPI document (api-schema.d.ts, `npm run console:api-types`):
// a screen names what a route answers or takes instead of restating it, so it cannot drift from the route.

type ApiPaths = { [P in keyof paths as P extends `${typeof BASE}${infer Rest}` ? Rest : never]: paths[P] };
/** A route's path as the console calls it (after `/api/v1`), in its template form: `/tenants/api-keys/{id}/revoke`. */
export type ApiPath = keyof ApiPaths;
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Operation<P extends ApiPath, M extends Method> = Exclude<ApiPaths[P][M], undefined>;
type Json<T> = T extends { content: { 'application/json': infer J } } ? J : never;

/** The JSON a route answers with `status` (200 unless named): `Answer<'/tenants/api-keys'>`. */
export type Answer<P extends ApiPath, M extends Method = 'get', S extends number = 200> =
  Operation<P, M> extends { responses: infer R } ? (S extends keyof R ? Json<R[S]> : never) : never;

/** The JSON body a route takes: `Body<'/tenants/api-keys', 'post'>`. */
export type Body<P extends ApiPath, M extends Method> =
  Operation<P, M> extends { requestBody?: infer B } ? Json<Exclude<B, undefined>> : never;
