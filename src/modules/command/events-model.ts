// The words of the Command Center event records (Part B 2.7): actor types, severities, outcomes, and the
// envelope of a stored event. The one place that orders severities.
import { type SQL, sql } from 'drizzle-orm';
import type { ActorType, Outcome, Severity } from '../../kernel/events/index.js';

export const ACTOR_TYPES = ['human', 'agent', 'service', 'system'] as const satisfies readonly ActorType[];
/** Lowest first. */
export const SEVERITIES = ['info', 'low', 'warn', 'high', 'critical'] as const satisfies readonly Severity[];
export const OUTCOMES = ['success', 'failure', 'denied'] as const satisfies readonly Outcome[];

/** The severity from which an event counts as elevated (Part B 4.8, by-actor: "at or above warn"). */
export const ELEVATED_FROM: Severity = 'warn';

/** The severities at or above `floor`. */
export const severitiesFrom = (floor: Severity): Severity[] => SEVERITIES.slice(SEVERITIES.indexOf(floor));

/** A severity column as its rank (info 0 … critical 4), for ordering and maxima in SQL. */
export function severityRank(column: SQL): SQL {
  const cases = SEVERITIES.map((severity, rank) => sql`when ${severity} then ${sql.raw(String(rank))}`);
  return sql`(case ${column} ${sql.join(cases, sql` `)} else -1 end)`;
}

/** The severity of a rank computed by `severityRank`. */
export const severityOfRank = (rank: number): Severity => SEVERITIES[rank] ?? 'info';

/** The rank `severityRank` gives a severity. */
export const rankOfSeverity = (severity: Severity): number => SEVERITIES.indexOf(severity);
