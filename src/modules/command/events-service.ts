// The Command Center's event reads (Part B 4.8): the filtered list, newest first, and activity by actor.
import type { Principal } from '../../kernel/auth/principal.js';
import type { ActorType, Outcome, Severity } from '../../kernel/events/index.js';
import { decodeCursor, isComparableInstant, pageOf, unprocessable } from '../../kernel/http/index.js';
import type { CommandDeps } from './deps.js';
import { activityByActor, eventAt, listEvents } from './events-store.js';
import { readScope, readStatementsWithin, readWithin } from './scope.js';

/** How many principals by-actor lists (the busiest); the rest are counted in `hidden`. */
export const BY_ACTOR_SHOWN = 100;
const DAY_MS = 86_400_000;
/** An instant as the events list writes it into its cursors (events-store.ts). */
const STORED_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export interface EventsQuery {
  since?: string;
  category?: string;
  action?: string;
  severity?: Severity;
  correlation_id?: string;
  actor_id?: string;
  actor_type?: ActorType;
  tenant_id?: string;
  limit: number;
  cursor?: string;
}

export interface ByActorQuery {
  actor_type: ActorType;
  days: number;
  tenant_id?: string;
}

export interface ByActor {
  actor_type: ActorType;
  days: number;
  since: string;
  principals: Array<{
    actor_id: string;
    total: number;
    by_outcome: Record<Outcome, number>;
    elevated: number;
    first_seen: string;
    last_seen: string;
  }>;
  total: number;
  shown: number;
  hidden: number;
}

export function createEventsReader(deps: CommandDeps) {
  return {
    /**
     * Events in the caller's scope matching every filter given, newest first: the page, `{ events, next_cursor }`,
     * as JSON text (the envelopes come as text from events-store), which the route answers as it is.
     */
    async list(principal: Principal, query: EventsQuery): Promise<string> {
      // The last event's instant to the microsecond, as stored, and its id.
      const key = decodeCursor(query.cursor, ['timestamp', 'uuid']);
      const after = key && { occurredAt: String(key[0]), id: String(key[1]) };
      if (after && !(STORED_INSTANT.test(after.occurredAt) && isComparableInstant(after.occurredAt)))
        throw unprocessable('cursor: is not a cursor this list answered');
      if (query.since !== undefined && !isComparableInstant(query.since))
        throw unprocessable('since: is not an instant from year 1 on (a real calendar day, no leap second)');
      const scope = await readScope(deps, principal, query.tenant_id);
      const filter = {
        tenantId: scope.tenantId,
        since: query.since === undefined ? undefined : new Date(query.since),
        category: query.category,
        action: query.action,
        severity: query.severity,
        correlationId: query.correlation_id,
        actorId: query.actor_id,
        actorType: query.actor_type,
      };
      // An event is never changed once written: the cursor's check and the page need no common snapshot.
      const found = await readStatementsWithin(deps, scope, async (q) => {
        // Only a position this list could have answered in this scope: another organization's event, or one
        // that never was, is a forged cursor (and tells nothing: both are the same 422).
        if (after && !(await eventAt(q, scope.tenantId, after))) {
          throw unprocessable('cursor: is not a cursor this list answered');
        }
        return listEvents(q, filter, query.limit + 1, after);
      });
      const page = pageOf(found, query.limit, (row) => [row.position.occurredAt, row.position.id]);
      return `{"events":[${page.rows.map((row) => row.envelope).join(',')}],"next_cursor":${JSON.stringify(page.next)}}`;
    },

    /** Per principal of one actor type over the last `days` days (Part B 4.8), by volume then actor id. */
    async byActor(principal: Principal, query: ByActorQuery): Promise<ByActor> {
      const scope = await readScope(deps, principal, query.tenant_id);
      const since = new Date(deps.clock.now().getTime() - query.days * DAY_MS);
      const { principals, actors } = await readWithin(deps, scope, (tx) =>
        activityByActor(tx, { tenantId: scope.tenantId, actorType: query.actor_type, since, shown: BY_ACTOR_SHOWN }),
      );
      return {
        actor_type: query.actor_type,
        days: query.days,
        since: since.toISOString(),
        principals: actors.map((actor) => ({
          ...actor,
          first_seen: actor.first_seen.toISOString(),
          last_seen: actor.last_seen.toISOString(),
        })),
        total: principals,
        shown: actors.length,
        hidden: principals - actors.length,
      };
    },
  };
}

export type EventsReader = ReturnType<typeof createEventsReader>;
