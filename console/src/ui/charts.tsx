import { useId } from 'react';

/**
 * Small SVG charts without a library. Each is a figure with a caption naming it, an SVG with role="img" and a
 * text summary, and the numbers as a table inside <details> for anyone who would rather read.
 */
export interface Datum {
  label: string;
  value: number;
}

const W = 480;
const H = 200;
const PAD = { top: 12, right: 12, bottom: 36, left: 40 };

function DataDetails(props: {
  caption: string;
  rows: { label: string; cells: (string | number)[] }[];
  headers: string[];
}) {
  return (
    <details className="chart-data">
      <summary>Show the numbers</summary>
      <table className="data-table">
        <caption className="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            {props.headers.map((header) => (
              <th key={header} scope="col">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={row.label}>
              <th scope="row">{row.label}</th>
              {row.cells.map((cell, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: cells are positional
                <td key={index} className="numeric">
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

export function BarChart(props: { title: string; data: Datum[]; unit?: string; max?: number }) {
  const id = useId();
  const max = Math.max(props.max ?? 0, ...props.data.map((d) => d.value), 1);
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const step = innerW / Math.max(props.data.length, 1);
  const barW = Math.min(48, step * 0.7);
  const summary = props.data.map((d) => `${d.label}: ${d.value}${props.unit ? ` ${props.unit}` : ''}`).join(', ');
  return (
    <figure className="chart">
      <figcaption id={`${id}-cap`}>{props.title}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${id}-title ${id}-sum`} className="chart-svg">
        <title id={`${id}-title`}>{props.title}</title>
        <desc id={`${id}-sum`}>{summary || 'No data'}</desc>
        <line x1={PAD.left} y1={PAD.top + innerH} x2={W - PAD.right} y2={PAD.top + innerH} className="axis" />
        <text x={PAD.left - 6} y={PAD.top + 4} className="tick" textAnchor="end">
          {max}
        </text>
        <text x={PAD.left - 6} y={PAD.top + innerH} className="tick" textAnchor="end">
          0
        </text>
        {props.data.map((d, index) => {
          const h = (d.value / max) * innerH;
          const x = PAD.left + step * index + (step - barW) / 2;
          return (
            <g key={d.label}>
              <rect x={x} y={PAD.top + innerH - h} width={barW} height={h} className="bar" rx={2} />
              <text x={x + barW / 2} y={PAD.top + innerH - h - 3} className="value" textAnchor="middle">
                {d.value}
              </text>
              <text x={x + barW / 2} y={H - PAD.bottom + 16} className="tick" textAnchor="middle">
                {d.label.length > 12 ? `${d.label.slice(0, 11)}…` : d.label}
              </text>
            </g>
          );
        })}
      </svg>
      <DataDetails
        caption={props.title}
        headers={['', props.unit ?? 'value']}
        rows={props.data.map((d) => ({ label: d.label, cells: [d.value] }))}
      />
    </figure>
  );
}

export interface Series {
  name: string;
  points: Datum[];
}

/** One or more series over the same labels (x axis), e.g. events per hour by severity. */
export function LineChart(props: { title: string; series: Series[]; unit?: string }) {
  const id = useId();
  const labels = props.series[0]?.points.map((p) => p.label) ?? [];
  const max = Math.max(1, ...props.series.flatMap((s) => s.points.map((p) => p.value)));
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const xOf = (index: number) => PAD.left + (labels.length <= 1 ? innerW / 2 : (innerW * index) / (labels.length - 1));
  const yOf = (value: number) => PAD.top + innerH - (value / max) * innerH;
  const summary = props.series
    .map((s) => `${s.name}: ${s.points.map((p) => `${p.label} ${p.value}`).join(', ')}`)
    .join('; ');
  const tickEvery = Math.max(1, Math.ceil(labels.length / 6));
  return (
    <figure className="chart">
      <figcaption id={`${id}-cap`}>{props.title}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${id}-title ${id}-sum`} className="chart-svg">
        <title id={`${id}-title`}>{props.title}</title>
        <desc id={`${id}-sum`}>{summary || 'No data'}</desc>
        <line x1={PAD.left} y1={PAD.top + innerH} x2={W - PAD.right} y2={PAD.top + innerH} className="axis" />
        <text x={PAD.left - 6} y={PAD.top + 4} className="tick" textAnchor="end">
          {max}
        </text>
        {labels.map((label, index) =>
          index % tickEvery === 0 ? (
            <text key={label} x={xOf(index)} y={H - PAD.bottom + 16} className="tick" textAnchor="middle">
              {label}
            </text>
          ) : null,
        )}
        {props.series.map((s, seriesIndex) => (
          <polyline
            key={s.name}
            className={`line series-${seriesIndex % 6}`}
            fill="none"
            points={s.points.map((p, index) => `${xOf(index)},${yOf(p.value)}`).join(' ')}
          />
        ))}
      </svg>
      {props.series.length > 1 && (
        <ul className="legend">
          {props.series.map((s, index) => (
            <li key={s.name}>
              <span className={`swatch series-${index % 6}`} aria-hidden="true" />
              {s.name}
            </li>
          ))}
        </ul>
      )}
      <DataDetails
        caption={props.title}
        headers={['', ...props.series.map((s) => s.name)]}
        rows={labels.map((label, index) => ({
          label,
          cells: props.series.map((s) => s.points[index]?.value ?? 0),
        }))}
      />
    </figure>
  );
}
