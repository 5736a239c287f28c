import type { ReactNode } from 'react';
import type { ApiError } from '../api';
import { useQueryState } from '../router';
import { EmptyState, ErrorBanner, Loading } from './feedback';

export interface Column<T> {
  /** Column key (also the React key of its cells). */
  key: string;
  header: string;
  render: (row: T) => ReactNode;
  /** Right-align numbers. */
  numeric?: boolean;
}

export interface DataTableProps<T> {
  /** Accessible name of the table (a caption). */
  caption: string;
  columns: Column<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string;
  loading?: boolean;
  error?: ApiError;
  empty?: ReactNode;
  /** Rows per page for client-side paging (the page number lives in the URL as `?<pageParam>=`). */
  pageSize?: number;
  pageParam?: string;
  /**
   * Server-side paging: `rows` is already one page; `hasMore` says whether a next page exists. The screen reads
   * the page with `useQueryState(pageParam)` and asks the API for it.
   */
  server?: { hasMore: boolean };
}

/** A table with loading, error and empty states and paging kept in the URL query string. */
export function DataTable<T>(props: DataTableProps<T>) {
  const pageParam = props.pageParam ?? 'page';
  const [pageText, setPage] = useQueryState(pageParam);
  const page = Math.max(1, Number.parseInt(pageText, 10) || 1);
  const size = props.pageSize ?? 20;

  if (props.error) return <ErrorBanner error={props.error} />;
  if (props.loading && !props.rows) return <Loading />;
  const all = props.rows ?? [];
  if (all.length === 0 && page === 1) {
    return typeof props.empty === 'string' || props.empty === undefined ? (
      <EmptyState title={(props.empty as string | undefined) ?? 'Nothing here yet.'} />
    ) : (
      props.empty
    );
  }
  const rows = props.server ? all : all.slice((page - 1) * size, page * size);
  const hasMore = props.server ? props.server.hasMore : page * size < all.length;
  const pages = props.server ? undefined : Math.max(1, Math.ceil(all.length / size));

  return (
    <div className="table-wrap">
      <table className="data-table">
        <caption className="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th key={column.key} scope="col" className={column.numeric ? 'numeric' : undefined}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody aria-busy={props.loading ? true : undefined}>
          {rows.map((row) => (
            <tr key={props.rowKey(row)}>
              {props.columns.map((column) => (
                <td key={column.key} data-label={column.header} className={column.numeric ? 'numeric' : undefined}>
                  {column.render(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {(page > 1 || hasMore) && (
        <nav className="pager" aria-label={`${props.caption} pages`}>
          <button
            type="button"
            disabled={page <= 1}
            onClick={() => setPage(page - 1 <= 1 ? undefined : String(page - 1))}
          >
            Previous
          </button>
          <span aria-live="polite">
            Page {page}
            {pages ? ` of ${pages}` : ''}
          </span>
          <button type="button" disabled={!hasMore} onClick={() => setPage(String(page + 1))}>
            Next
          </button>
        </nav>
      )}
    </div>
  );
}
