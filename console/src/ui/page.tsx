import { type ReactNode, useEffect } from 'react';

/** A screen's frame: its heading (the page's one h1), the actions beside it, then its content. */
export function Page(props: { title: string; actions?: ReactNode; children: ReactNode; description?: ReactNode }) {
  useEffect(() => {
    document.title = `${props.title} · Console`;
  }, [props.title]);
  return (
    <section className="page" aria-labelledby="page-title">
      <header className="page-header">
        <div>
          <h1 id="page-title" tabIndex={-1}>
            {props.title}
          </h1>
          {props.description && <p className="muted">{props.description}</p>}
        </div>
        {props.actions && <div className="page-actions">{props.actions}</div>}
      </header>
      {props.children}
    </section>
  );
}

/** A titled block within a page. */
export function Section(props: { title: string; children: ReactNode; actions?: ReactNode }) {
  const id = `section-${props.title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section className="card" aria-labelledby={id}>
      <header className="card-header">
        <h2 id={id}>{props.title}</h2>
        {props.actions}
      </header>
      {props.children}
    </section>
  );
}
