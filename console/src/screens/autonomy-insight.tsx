import { type Answer, useApi } from '../api';
import { BarChart, ErrorBanner, Loading, Section } from '../ui';

/**
 * The autonomy screen's read-only half: ledger metrics (GET /autonomy/metrics) and each class's graduation
 * against its bar (GET /autonomy/graduation).
 */

/** GET /autonomy/metrics */
export type Metrics = Answer<'/autonomy/metrics'>;
/** GET /autonomy/graduation */
type GraduationReport = Answer<'/autonomy/graduation'>;

const seconds = (value: number | null) => (value === null ? '—' : `${Math.round(value * 10) / 10} s`);
const age = (value: number | null) =>
  value === null ? '—' : value < 3600 ? `${Math.round(value / 60)} min` : `${Math.round(value / 360) / 10} h`;
const percent = (value: number) => `${Math.round(value * 1000) / 10} %`;

export function AutonomyMetrics() {
  const metrics = useApi<Metrics>('/autonomy/metrics');
  const m = metrics.data;
  return (
    <Section title="Metrics (30 days)">
      {metrics.error && <ErrorBanner error={metrics.error} />}
      {metrics.loading && !m && <Loading label="Loading metrics" />}
      {m && (
        <>
          <dl className="facts" data-testid="autonomy-metrics">
            <dt>Pending proposals</dt>
            <dd>
              {m.pending.count} ({m.pending.actionable} actionable), oldest {age(m.pending.oldest_age_seconds)}
            </dd>
            <dt>Executed</dt>
            <dd>{m.execution_latency_seconds.executed_30d}</dd>
            <dt>Unattended runs</dt>
            <dd>{m.unattended_30d}</dd>
            <dt>Execution latency</dt>
            <dd>
              mean {seconds(m.execution_latency_seconds.mean)}, p95 {seconds(m.execution_latency_seconds.p95)}
            </dd>
          </dl>
          <BarChart
            title="Decisions by mode"
            data={Object.entries(m.by_mode).map(([label, value]) => ({ label, value }))}
          />
          <table>
            <caption>Caps used per class</caption>
            <thead>
              <tr>
                <th scope="col">Class</th>
                <th scope="col">Executions this hour</th>
                <th scope="col">Distinct targets in 24 h</th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(m.classes).map(([name, use]) => (
                <tr key={name}>
                  <th scope="row">{name}</th>
                  <td>
                    {use.rate_used} of {use.rate_cap}
                  </td>
                  <td>
                    {use.spread_used} of {use.spread_cap}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </Section>
  );
}

export function AutonomyGraduation() {
  const report = useApi<GraduationReport>('/autonomy/graduation');
  const r = report.data;
  const entries = r ? Object.entries(r.classes) : [];
  return (
    <Section title="Graduation">
      {report.error && <ErrorBanner error={report.error} />}
      {report.loading && !r && <Loading label="Loading graduation" />}
      {r && (
        <>
          <p className="muted">
            Over {r.window_days} days: a class at level "graduated" runs unattended once the lower bound of its approval
            rate reaches its bar and every criterion is met.
          </p>
          <BarChart
            title="Approval lower bound per class (%)"
            unit="%"
            max={100}
            data={entries.map(([label, g]) => ({ label, value: Math.round(g.lower_bound * 1000) / 10 }))}
          />
          <table>
            <caption>Graduation per class</caption>
            <thead>
              <tr>
                <th scope="col">Class</th>
                <th scope="col">Graduated</th>
                <th scope="col">Lower bound / bar</th>
                <th scope="col">Approvals</th>
                <th scope="col">Approvals needed</th>
                <th scope="col">Unmet</th>
              </tr>
            </thead>
            <tbody>
              {entries.map(([name, g]) => (
                <tr key={name}>
                  <th scope="row">{name}</th>
                  <td>{g.eligible ? 'yes' : 'no'}</td>
                  <td>
                    {percent(g.lower_bound)} / {percent(g.bar)}
                  </td>
                  <td>
                    {g.approvals} of {g.total}, over {g.span_days} of {g.min_days} days
                    {g.reversals_recent > 0 && `, ${g.reversals_recent} reversed in 30 days`}
                  </td>
                  <td>{g.approvals_needed === null ? 'over 1,000' : g.approvals_needed}</td>
                  <td>{g.unmet.length ? g.unmet.join('; ') : 'none'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </Section>
  );
}
