import { useCallback, useSyncExternalStore } from 'react';

/**
 * A small router on the History API: the path under /console picks the screen, the query string holds filters
 * and paging (so a table's state survives reload and can be linked).
 */
const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};
window.addEventListener('popstate', notify);

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const snapshot = () => location.pathname + location.search;

/** Goes to `path` (a console path such as `/console/members?page=2`, or relative to /console: `/members`). */
export function navigate(path: string, opts: { replace?: boolean } = {}): void {
  const target = path.startsWith('/console') ? path : `/console${path.startsWith('/') ? '' : '/'}${path}`;
  if (target === snapshot()) return;
  if (opts.replace) history.replaceState(null, '', target);
  else history.pushState(null, '', target);
  notify();
}

export interface Route {
  /** The path below /console, always starting with `/` (`/`, `/members`, `/account`). */
  path: string;
  query: URLSearchParams;
}

export function useRoute(): Route {
  const current = useSyncExternalStore(subscribe, snapshot);
  const url = new URL(current, location.origin);
  const below = url.pathname.replace(/^\/console/, '') || '/';
  return { path: below, query: url.searchParams };
}

/**
 * One query-string parameter as state: `[value, setValue]`; setting `''` or undefined removes it. Changing any
 * key other than `page` resets `page` (a new filter starts at the first page).
 */
export function useQueryState(key: string): [string, (value: string | undefined) => void] {
  const { query } = useRoute();
  const value = query.get(key) ?? '';
  const set = useCallback(
    (next: string | undefined) => {
      const params = new URLSearchParams(location.search);
      if (next === undefined || next === '') params.delete(key);
      else params.set(key, next);
      // A new filter starts the list over: its page number and its cursor (a cursor belongs to the filters it was
      // given with) are forgotten.
      if (key !== 'page' && key !== 'cursor') {
        params.delete('page');
        params.delete('cursor');
      }
      const search = params.toString();
      navigate(location.pathname + (search ? `?${search}` : ''), { replace: true });
    },
    [key],
  );
  return [value, set];
}

/** A link that navigates without reloading the page (and still works with a modifier key or a middle click). */
export function Link(props: { to: string; children: React.ReactNode; className?: string; current?: boolean }) {
  const href = props.to.startsWith('/console') ? props.to : `/console${props.to}`;
  return (
    <a
      href={href}
      className={props.className}
      aria-current={props.current ? 'page' : undefined}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(href);
      }}
    >
      {props.children}
    </a>
  );
}
