import { useEffect, useId, useRef, useState } from 'react';
import type { Answer } from '../api';
import { currentTokens, renew } from '../auth';
import { useQueryState } from '../router';
import './command-kit.css';

/**
 * Pieces the Command Center screens share: names for the API's shapes they pass between them (aliases of the
 * generated ones), a severity tag, filters bound to the URL, and the live event stream read with fetch.
 */

export const SEVERITIES = ['info', 'low', 'warn', 'high', 'critical'] as const;
export const ACTOR_TYPES = ['human', 'agent', 'service', 'system'] as const;

/**
 * The event envelope (Part B 2.7), as `GET /command/events` lists it. The live stream
 * (`GET /command/events/stream`) carries the same envelope in each `data:` line; the OpenAPI document describes
 * that answer only as text, so the list's item names it.
 */
export type EventEnvelope = Answer<'/command/events'>['events'][number];

/** A detection as `GET /command/detections` lists it. */
export type Detection = Answer<'/command/detections'>['detections'][number];

/** An incident as `GET /command/incidents` lists it. */
export type Incident = Answer<'/command/incidents'>['incidents'][number];

export type IncidentStatus = Incident['status'];

/** The documented moves (docs/command-center.md "Incidents"); the API answers 409 to any other. */
export const INCIDENT_MOVES: Record<IncidentStatus, IncidentStatus[]> = {
  open: ['investigating', 'contained', 'resolved', 'closed'],
  investigating: ['contained', 'resolved', 'closed'],
  contained: ['investigating', 'resolved', 'closed'],
  resolved: ['investigating', 'closed'],
  closed: [],
};

export const when = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'medium' }) : '—';

const SEVERITY_TONE: Record<string, string> = {
  info: 'sev-info',
  low: 'sev-low',
  warn: 'sev-warn',
  high: 'sev-high',
  critical: 'sev-critical',
};

/** A severity or status word in a pill (the colour repeats the word, never replaces it). */
export function Pill(props: { value: string }) {
  return <span className={`cc-pill ${SEVERITY_TONE[props.value] ?? ''}`}>{props.value}</span>;
}

export const options = (values: readonly string[], any: string) => [
  { value: '', label: any },
  ...values.map((value) => ({ value, label: value })),
];

/** A text filter bound to one URL query parameter, applied on Enter or when the field loses focus. */
export function QueryText(props: { param: string; label: string; placeholder?: string }) {
  const [value, setValue] = useQueryState(props.param);
  const [draft, setDraft] = useState(value);
  const id = useId();
  useEffect(() => setDraft(value), [value]);
  const apply = () => {
    if (draft.trim() !== value) setValue(draft.trim());
  };
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        type="search"
        value={draft}
        placeholder={props.placeholder}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={apply}
        onKeyDown={(event) => {
          if (event.key === 'Enter') apply();
        }}
      />
    </div>
  );
}

/** The values of some URL query parameters, without the empty ones (for the API's query). */
export function queryOf(query: URLSearchParams, keys: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of keys) {
    const value = query.get(key);
    if (value) out[key] = value;
  }
  return out;
}

export type StreamState = 'connecting' | 'live' | 'reconnecting' | 'stopped' | 'failed';

/** Splits an SSE buffer into complete frames (blank-line separated); answers the frames and the rest. */
export function sseFrames(buffer: string): { frames: string[]; rest: string } {
  const parts = buffer.split(/\r?\n\r?\n/);
  const rest = parts.pop() ?? '';
  return { frames: parts, rest };
}

/** One SSE frame: its `data:` lines joined, and its comments (`: stream open`, `: keepalive`). */
export function parseFrame(frame: string): { data: string | undefined; comments: string[] } {
  const data: string[] = [];
  const comments: string[] = [];
  for (const line of frame.split(/\r?\n/)) {
    if (line.startsWith(':')) comments.push(line.slice(1).trim());
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  return { data: data.length ? data.join('\n') : undefined, comments };
}

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * The live stream `GET /api/v1/command/events/stream` while `enabled`: Server-Sent Events read with fetch and a
 * stream reader (a browser EventSource cannot send the Authorization header). The service ends a stream after
 * one access-token lifetime, on a node's stop or when delivery was interrupted: it is opened again with the
 * current token (renewed first on a 401). `onReconnect` lets the screen re-read what may have been missed, as
 * the stream has no resume. Stops on unmount.
 */
export function useEventStream(
  enabled: boolean,
  onEvent: (event: EventEnvelope) => void,
  onReconnect?: () => void,
): { state: StreamState; error: string | undefined } {
  const [state, setState] = useState<StreamState>(enabled ? 'connecting' : 'stopped');
  const [error, setError] = useState<string | undefined>(undefined);
  const handlers = useRef({ onEvent, onReconnect });
  handlers.current = { onEvent, onReconnect };

  useEffect(() => {
    if (!enabled) {
      setState('stopped');
      return;
    }
    const controller = new AbortController();
    const { signal } = controller;
    (async () => {
      let attempt = 0;
      let renewals = 0;
      while (!signal.aborted) {
        setState(attempt === 0 ? 'connecting' : 'reconnecting');
        try {
          const token = currentTokens()?.accessToken;
          const response = await fetch('/api/v1/command/events/stream', {
            headers: { accept: 'text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
            credentials: 'omit',
            signal,
          });
          if (response.status === 401 && renewals < 2 && (await renew())) {
            renewals += 1;
            continue;
          }
          if (!response.ok || !response.body) {
            const body = (await response.json().catch(() => ({}))) as { detail?: string };
            const detail = body.detail ?? `${response.status} ${response.statusText}`;
            if (response.status === 503) {
              setError(`${detail} (trying again)`);
              const after = Number(response.headers.get('retry-after')) || 5;
              await pause(after * 1000, signal);
              attempt += 1;
              continue;
            }
            setError(response.status === 403 ? `${detail} (refused by the API: 403)` : detail);
            setState('failed');
            return;
          }
          const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
          let buffer = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) {
              // The service ended it (token lifetime, stop, interrupted delivery): connect again shortly.
              await pause(500, signal);
              break;
            }
            buffer += value;
            const { frames, rest } = sseFrames(buffer);
            buffer = rest;
            for (const frame of frames) {
              const { data, comments } = parseFrame(frame);
              if (comments.includes('stream open')) {
                setError(undefined);
                setState('live');
                renewals = 0;
                if (attempt > 0) handlers.current.onReconnect?.();
              }
              if (data) handlers.current.onEvent(JSON.parse(data) as EventEnvelope);
            }
          }
        } catch (reason) {
          if (signal.aborted) return;
          setError(`The stream was interrupted: ${(reason as Error)?.message ?? reason} (trying again)`);
          await pause(2_000, signal);
        }
        attempt += 1;
      }
    })();
    return () => controller.abort();
  }, [enabled]);

  return { state: enabled ? state : 'stopped', error };
}
