import { useCallback, useMemo, useState } from 'react';
import { type Answer, useApi } from '../api';
import { Link, useQueryState, useRoute } from '../router';
import { useSession } from '../session';
import { DataTable, ErrorBanner, FilterSelect, LineChart, Page, Section } from '../ui';
import {
  ACTOR_TYPES,
  type EventEnvelope,
  options,
  Pill,
  QueryText,
  queryOf,
  SEVERITIES,
  type StreamState,
  useEventStream,
  when,
} from '../ui/command-kit';
import { auditScreens } from './command-audit';
import { detectionScreens } from './command-detections';
import { incidentScreens } from './command-incidents';
import type { ScreenDef } from './types';

/** GET /command/events: a page of events, newest first, and the cursor of the older ones. */
type EventsPage = Answer<'/command/events'>;

const PAGE = 50;
/** The time-range presets of the `range` filter, in hours (`since` is computed from them on each read). */
const RANGES: Record<string, number> = { '1h': 1, '24h': 24, '7d': 168, '30d': 720 };
const FILTER_KEYS = ['category', 'action', 'severity', 'correlation_id', 'actor_id', 'actor_type', 'tenant_id'];

const sinceOf = (range: string) =>
  RANGES[range] ? new Date(Date.now() - RANGES[range] * 3_600_000).toISOString() : undefined;

/** Whether a streamed event passes the list's filters (the stream itself carries everything in scope). */
function passes(event: EventEnvelope, filters: Record<string, string>): boolean {
  if (filters.category && event.category !== filters.category) return false;
  if (filters.action && event.action !== filters.action) return false;
  if (filters.severity && event.severity !== filters.severity) return false;
  if (filters.correlation_id && event.correlation_id !== filters.correlation_id) return false;
  if (filters.actor_id && event.actor.id !== filters.actor_id) return false;
  if (filters.actor_type && event.actor.type !== filters.actor_type) return false;
  if (filters.tenant_id && event.tenant_id !== filters.tenant_id) return false;
  return true;
}

const eventColumns = [
  { key: 'time', header: 'Time', render: (e: EventEnvelope) => when(e.timestamp) },
  { key: 'action', header: 'Action', render: (e: EventEnvelope) => <code>{e.action}</code> },
  { key: 'severity', header: 'Severity', render: (e: EventEnvelope) => <Pill value={e.severity} /> },
  { key: 'outcome', header: 'Outcome', render: (e: EventEnvelope) => e.outcome },
  {
    key: 'actor',
    header: 'Actor',
    render: (e: EventEnvelope) => (
      <Link to={`/command/events?actor_id=${encodeURIComponent(e.actor.id)}`}>
        {e.actor.type} <span className="cc-mono">{e.actor.id}</span>
      </Link>
    ),
  },
  { key: 'category', header: 'Category', render: (e: EventEnvelope) => e.category },
];

/** Events per hour over the last 24 hours, one line per severity (from the newest 1000 events). */
function EventsPerHour(props: { filters: Record<string, string> }) {
  const [since] = useState(() => new Date(Date.now() - 23 * 3_600_000).toISOString().slice(0, 13));
  const { severity: _ignored, ...filters } = props.filters;
  const recent = useApi<EventsPage>('/command/events', { ...filters, since: `${since}:00:00Z`, limit: 1000 });
  const series = useMemo(() => {
    const start = Date.parse(`${since}:00:00Z`);
    const hours = Array.from({ length: 24 }, (_, i) => new Date(start + i * 3_600_000));
    const label = (d: Date) => `${String(d.getHours()).padStart(2, '0')}:00`;
    return SEVERITIES.map((severity) => ({
      name: severity,
      points: hours.map((hour, i) => ({
        label: label(hour),
        value: (recent.data?.events ?? []).filter(
          (e) => e.severity === severity && Math.floor((Date.parse(e.timestamp) - start) / 3_600_000) === i,
        ).length,
      })),
    }));
  }, [recent.data, since]);
  if (recent.error) return <ErrorBanner error={recent.error} />;
  return (
    <Section title="Events per hour by severity">
      <LineChart title="Events per hour over the last 24 hours, by severity" unit="events" series={series} />
      {recent.data?.next_cursor && <p className="hint">From the newest 1000 events of the last 24 hours.</p>}
    </Section>
  );
}

const STREAM_TEXT: Record<StreamState, string> = {
  connecting: 'Connecting to the live stream…',
  live: 'Live: new events appear at the top as they happen.',
  reconnecting: 'Reconnecting to the live stream…',
  stopped: 'The live stream is paused.',
  failed: 'The live stream stopped.',
};

function LiveStream(props: { filters: Record<string, string>; onReconnect: () => void }) {
  const [paused, setPaused] = useQueryState('paused');
  const [arrived, setArrived] = useState<EventEnvelope[]>([]);
  const { filters } = props;
  const onEvent = useCallback((event: EventEnvelope) => setArrived((list) => [event, ...list].slice(0, 200)), []);
  const stream = useEventStream(paused !== '1', onEvent, props.onReconnect);
  const shown = arrived.filter((event) => passes(event, filters));
  return (
    <Section
      title="Live stream"
      actions={
        <div className="cc-row">
          <button type="button" className="button" onClick={() => setPaused(paused === '1' ? undefined : '1')}>
            {paused === '1' ? 'Resume the live stream' : 'Pause the live stream'}
          </button>
          {arrived.length > 0 && (
            <button type="button" className="button" onClick={() => setArrived([])}>
              Clear
            </button>
          )}
        </div>
      }
    >
      <p role="status" data-testid="stream-state" data-state={stream.state}>
        {STREAM_TEXT[stream.state]} {shown.length > 0 && `${shown.length} new since you opened it.`}
      </p>
      {stream.error && <ErrorBanner error={stream.error} />}
      {shown.length > 0 && (
        <DataTable<EventEnvelope>
          caption="Events arriving live"
          pageParam="live_page"
          rows={shown}
          rowKey={(e) => e.id}
          columns={eventColumns}
        />
      )}
    </Section>
  );
}

function Events() {
  const session = useSession();
  const { query } = useRoute();
  const [range] = useQueryState('range');
  const [cursor, setCursor] = useQueryState('cursor');
  const filters = queryOf(query, FILTER_KEYS);
  // `since` is fixed per range choice, so re-renders do not re-read.
  const since = useMemo(() => sinceOf(range), [range]);
  const events = useApi<EventsPage>('/command/events', { ...filters, since, cursor, limit: PAGE });
  const filtered = Object.keys(filters).length > 0 || range;
  return (
    <Page
      title="Events"
      description="Everything the service recorded, newest first. Filters stay in the address, so a view can be shared."
      actions={<Link to="/command/events/by-actor">Activity by actor</Link>}
    >
      <LiveStream filters={filters} onReconnect={events.reload} />
      <Section title="Recorded events">
        <div className="cc-filters">
          <FilterSelect
            param="range"
            label="Time range"
            options={[
              { value: '', label: 'Any time' },
              { value: '1h', label: 'Last hour' },
              { value: '24h', label: 'Last 24 hours' },
              { value: '7d', label: 'Last 7 days' },
              { value: '30d', label: 'Last 30 days' },
            ]}
          />
          <FilterSelect param="severity" label="Severity" options={options(SEVERITIES, 'Every severity')} />
          <FilterSelect param="actor_type" label="Actor type" options={options(ACTOR_TYPES, 'Every actor type')} />
          <QueryText param="actor_id" label="Actor id" />
          <QueryText param="category" label="Category" placeholder="auth" />
          <QueryText param="action" label="Action" placeholder="user.login_failed" />
          <QueryText param="correlation_id" label="Correlation id" />
          {session.isPlatformOperator && <QueryText param="tenant_id" label="Organization id" />}
        </div>
        <DataTable<EventEnvelope>
          caption="Recorded events"
          rows={events.data?.events}
          loading={events.loading}
          error={events.error}
          rowKey={(e) => e.id}
          empty={filtered ? 'No event matches these filters.' : 'No event is recorded yet.'}
          server={{ hasMore: false }}
          columns={eventColumns}
        />
        {(cursor || events.data?.next_cursor) && (
          <nav className="pager" aria-label="Older events">
            {cursor && (
              <button type="button" onClick={() => setCursor(undefined)}>
                Newest events
              </button>
            )}
            {events.data?.next_cursor && (
              <button type="button" onClick={() => setCursor(events.data?.next_cursor ?? undefined)}>
                Older events
              </button>
            )}
          </nav>
        )}
      </Section>
      <EventsPerHour filters={filters} />
    </Page>
  );
}

/** GET /command/events/by-actor: activity per principal over the last days. */
type ByActor = Answer<'/command/events/by-actor'>;

function EventsByActor() {
  const session = useSession();
  const { query } = useRoute();
  const params = queryOf(query, ['actor_type', 'days', 'tenant_id']);
  const activity = useApi<ByActor>('/command/events/by-actor', params);
  const type = activity.data?.actor_type ?? params.actor_type ?? 'agent';
  return (
    <Page
      title="Activity by actor"
      description="Who has been busy: events per principal, by the envelope's actor."
      actions={<Link to="/command/events">All events</Link>}
    >
      <Section title="Principals">
        <div className="cc-filters">
          <FilterSelect
            param="actor_type"
            label="Actor type"
            options={ACTOR_TYPES.map((t) => ({ value: t === 'agent' ? '' : t, label: t }))}
          />
          <FilterSelect
            param="days"
            label="Window"
            options={[
              { value: '', label: 'Last 7 days' },
              { value: '1', label: 'Last day' },
              { value: '30', label: 'Last 30 days' },
              { value: '90', label: 'Last 90 days' },
            ]}
          />
          {session.isPlatformOperator && <QueryText param="tenant_id" label="Organization id" />}
        </div>
        {activity.data && (
          <p data-testid="by-actor-counts">
            {activity.data.total} {type} principals with events since {when(activity.data.since)}
            {activity.data.hidden > 0 && `; the ${activity.data.shown} busiest shown, ${activity.data.hidden} more`}.
          </p>
        )}
        <DataTable<ByActor['principals'][number]>
          caption={`Activity of ${type} principals`}
          rows={activity.data?.principals}
          loading={activity.loading}
          error={activity.error}
          rowKey={(p) => p.actor_id}
          empty="No principal of this type did anything in this window."
          columns={[
            {
              key: 'actor',
              header: 'Actor',
              render: (p) => (
                <Link to={`/command/events?actor_id=${encodeURIComponent(p.actor_id)}`}>
                  <span className="cc-mono">{p.actor_id}</span>
                </Link>
              ),
            },
            { key: 'total', header: 'Events', numeric: true, render: (p) => p.total },
            { key: 'success', header: 'Succeeded', numeric: true, render: (p) => p.by_outcome.success },
            { key: 'failure', header: 'Failed', numeric: true, render: (p) => p.by_outcome.failure },
            { key: 'denied', header: 'Denied', numeric: true, render: (p) => p.by_outcome.denied },
            { key: 'elevated', header: 'Warn or above', numeric: true, render: (p) => p.elevated },
            { key: 'last', header: 'Last seen', render: (p) => when(p.last_seen) },
          ]}
        />
      </Section>
    </Page>
  );
}

const read = (s: { can(code: string): boolean }) => s.can('command:read');
const GROUP = 'Command Center';

export const screens: ScreenDef[] = [
  { path: '/command/events', title: 'Events', group: GROUP, visible: read, component: Events },
  {
    path: '/command/events/by-actor',
    title: 'Activity by actor',
    group: GROUP,
    visible: read,
    component: EventsByActor,
  },
  ...detectionScreens,
  ...incidentScreens,
  ...auditScreens,
];
