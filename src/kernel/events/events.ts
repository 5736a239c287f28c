import { and, asc, eq, gt, lte, sql } from 'drizzle-orm';
import type { Clock } from '../clock.js';
import { sha256Hex } from '../crypto/secrets.js';
import { afterCommit, type Transactions, type Tx } from '../db/index.js';
import { newId } from '../ids.js';
import { canonicalJson } from './canonical-json.js';
import { isKnownEventType, webhookEventTypes } from './catalogue.js';
import type { LiveStream } from './live-stream.js';
import { DETECTION_RULES } from './rules.js';
import { auditChainHead, auditLog, detections, events, webhookOutbox } from './schema.js';

export type ActorType = 'human' | 'agent' | 'service' | 'system';
export type Severity = 'info' | 'low' | 'warn' | 'high' | 'critical';
export type Outcome = 'success' | 'failure' | 'denied';

export interface Actor {
  id: string;
  type: ActorType;
}

export interface EmitInput {
  tenantId: string | null;
  actor: Actor;
  /** Area of the event: `auth`, `session`, `admin`, `agent`… */
  category: string;
  /** `resource.past_verb`, from the one catalogue. */
  action: string;
  severity?: Severity;
  outcome?: Outcome;
  correlationId?: string | undefined;
  /** The person the event is about; their activity feed shows it. */
  subjectUserId?: string | undefined;
  data?: Record<string, unknown>;
  /** The audit entry is written unless this is false; tags default by category. */
  audit?: boolean | { complianceTags: string[] };
  /** Published to the tenant's subscribed webhook endpoints with exactly this data (Part A 6). */
  webhook?: { type: string; data: Record<string, unknown> };
}

/** The Command Center envelope (Part B 2.7), as stored and as streamed. */
export interface EventEnvelope {
  id: string;
  tenant_id: string | null;
  timestamp: string;
  actor: Actor;
  category: string;
  action: string;
  severity: Severity;
  outcome: Outcome;
  correlation_id: string | null;
  data: Record<string, unknown>;
}

/** The envelope of a stored event: the one mapping from the events table, for lists and the live stream alike. */
export function envelopeOf(row: typeof events.$inferSelect): EventEnvelope {
  return {
    id: row.id,
    tenant_id: row.tenantId,
    timestamp: row.occurredAt.toISOString(),
    actor: { id: row.actorId, type: row.actorType },
    category: row.category,
    action: row.action,
    severity: row.severity,
    outcome: row.outcome,
    correlation_id: row.correlationId,
    data: row.data,
  };
}

export interface DetectionInput {
  tenantId: string | null;
  ruleId: string;
  /** What makes two hits the same detection, e.g. `actor:<id>` or `session:<id>`. */
  groupKey: string;
  severity: Severity;
  data?: Record<string, unknown>;
}

/**
 * A detection as it stands after one `detect` call: its group row (`id`, the same while the group stays open) and
 * how often it has been seen. What detection listeners (`onDetection`) are told once the transaction committed.
 */
export interface RaisedDetection {
  id: string;
  tenantId: string | null;
  ruleId: string;
  groupKey: string;
  severity: Severity;
  count: number;
  data: Record<string, unknown>;
}

/** A detection rule sees every emitted event and may raise a detection for it. */
export interface DetectionRule {
  id: string;
  match(event: EventEnvelope): Omit<DetectionInput, 'tenantId' | 'ruleId'> | null;
}

export interface AuditVerification {
  verified: boolean;
  entries: number;
  broken_seq: number | null;
}

const GENESIS = '0'.repeat(64);

const COMPLIANCE_TAGS: Record<string, string[]> = {
  auth: ['soc2:CC6.1', 'iso27001:A.8.5'],
  session: ['soc2:CC6.1', 'iso27001:A.8.5'],
  admin: ['soc2:CC6.2', 'iso27001:A.5.18'],
  security: ['soc2:CC7.2', 'iso27001:A.8.16'],
  privacy: ['gdpr:Art.30'],
  agent: ['soc2:CC6.1', 'iso27001:A.5.18'],
};

export interface Events {
  /** Writes the event, its audit entry, detections and webhook outbox rows in the caller's transaction. */
  emit(tx: Tx, input: EmitInput): Promise<EventEnvelope>;
  /** Raises (or counts again) a deduplicated detection in the caller's transaction. */
  detect(tx: Tx, input: DetectionInput): Promise<void>;
  /**
   * The one hook point for what detections set off (autonomous response, Part B 4.9): `listener` hears of each
   * detection raised or counted again, after its transaction committed (never for one rolled back). Registered at
   * wiring time; a failing listener never undoes the detection.
   */
  onDetection(listener: (detection: RaisedDetection) => Promise<void>): void;
  /** Walks the whole chain from genesis; the first entry whose hash does not hold is `broken_seq`. */
  verifyAudit(): Promise<AuditVerification>;
  live: LiveStream;
}

export function auditEntryHash(prevHash: string, entry: Record<string, unknown>): string {
  return sha256Hex(`${prevHash}\n${canonicalJson(entry)}`);
}

/** An audit entry's fields that its hash covers, as the entry reads (the Command Center adds the two hashes). */
export function hashedFields(row: typeof auditLog.$inferSelect) {
  return {
    seq: row.seq,
    tenant_id: row.tenantId,
    event_id: row.eventId,
    occurred_at: row.occurredAt.toISOString(),
    actor_id: row.actorId,
    actor_type: row.actorType,
    action: row.action,
    outcome: row.outcome,
    correlation_id: row.correlationId,
    compliance_tags: row.complianceTags,
    data: row.data,
  };
}

export function createEvents(deps: {
  transactions: Transactions;
  clock: Clock;
  live: LiveStream;
  rules?: DetectionRule[];
}): Events {
  const { transactions, clock, live } = deps;
  const rules = deps.rules ?? DETECTION_RULES;

  async function appendAudit(tx: Tx, envelope: EventEnvelope, tags: string[]): Promise<void> {
    // The head row is the chain's lock: concurrent appends queue here until the holder commits.
    const [head] = await tx
      .update(auditChainHead)
      .set({ seq: sql`${auditChainHead.seq} + 1` })
      .where(eq(auditChainHead.id, 1))
      .returning({ seq: auditChainHead.seq, hash: auditChainHead.hash });
    if (!head) throw new Error('audit chain head missing: run migrations');
    const row = {
      seq: head.seq,
      tenantId: envelope.tenant_id,
      eventId: envelope.id,
      occurredAt: new Date(envelope.timestamp),
      actorId: envelope.actor.id,
      actorType: envelope.actor.type,
      action: envelope.action,
      outcome: envelope.outcome,
      correlationId: envelope.correlation_id,
      complianceTags: tags,
      data: envelope.data,
      prevHash: head.hash,
      entryHash: '',
    };
    row.entryHash = auditEntryHash(head.hash, hashedFields(row));
    await tx.insert(auditLog).values(row);
    await tx.update(auditChainHead).set({ hash: row.entryHash }).where(eq(auditChainHead.id, 1));
  }

  const detectionListeners: Array<(detection: RaisedDetection) => Promise<void>> = [];

  async function detect(tx: Tx, input: DetectionInput): Promise<void> {
    const now = clock.now();
    const raised = await tx
      .insert(detections)
      .values({
        id: newId(),
        tenantId: input.tenantId,
        scope: input.tenantId ?? 'platform',
        ruleId: input.ruleId,
        groupKey: input.groupKey,
        severity: input.severity,
        status: 'open',
        count: 1,
        firstSeen: now,
        lastSeen: now,
        data: input.data ?? {},
      })
      .onConflictDoUpdate({
        target: [detections.scope, detections.ruleId, detections.groupKey],
        targetWhere: sql`status = 'open'`,
        set: { count: sql`${detections.count} + 1`, lastSeen: now, data: input.data ?? {} },
      })
      .returning({ id: detections.id, count: detections.count });
    const row = raised[0];
    if (row && detectionListeners.length > 0) {
      const detection: RaisedDetection = {
        ...{ id: row.id, count: row.count, tenantId: input.tenantId, ruleId: input.ruleId },
        ...{ groupKey: input.groupKey, severity: input.severity, data: input.data ?? {} },
      };
      afterCommit(tx, async () => {
        for (const listener of detectionListeners) await listener(detection);
      });
    }
  }

  return {
    live,
    detect,
    onDetection(listener) {
      detectionListeners.push(listener);
    },
    async emit(tx, input) {
      if (!isKnownEventType(input.action)) throw new Error(`event ${input.action} is not in the catalogue`);
      if (input.webhook && !webhookEventTypes().some((type) => type.name === input.webhook!.type)) {
        throw new Error(`webhook event ${input.webhook.type} is not in the catalogue`);
      }
      const envelope: EventEnvelope = {
        id: newId(),
        tenant_id: input.tenantId,
        timestamp: clock.now().toISOString(),
        actor: input.actor,
        category: input.category,
        action: input.action,
        severity: input.severity ?? 'info',
        outcome: input.outcome ?? 'success',
        correlation_id: input.correlationId ?? null,
        data: input.data ?? {},
      };
      await tx.insert(events).values({
        id: envelope.id,
        tenantId: envelope.tenant_id,
        occurredAt: new Date(envelope.timestamp),
        actorId: envelope.actor.id,
        actorType: envelope.actor.type,
        subjectUserId: input.subjectUserId ?? null,
        category: envelope.category,
        action: envelope.action,
        severity: envelope.severity,
        outcome: envelope.outcome,
        correlationId: envelope.correlation_id,
        data: envelope.data,
      });
      if (input.audit !== false) {
        const tags =
          typeof input.audit === 'object' ? input.audit.complianceTags : (COMPLIANCE_TAGS[input.category] ?? []);
        await appendAudit(tx, envelope, tags);
      }
      if (input.webhook && input.tenantId) {
        await tx.insert(webhookOutbox).values({
          id: newId(),
          tenantId: input.tenantId,
          eventId: envelope.id,
          eventType: input.webhook.type,
          payload: { id: envelope.id, type: input.webhook.type, schema_version: 1, data: input.webhook.data },
          createdAt: new Date(envelope.timestamp),
        });
      }
      for (const rule of rules) {
        const hit = rule.match(envelope);
        if (hit) await detect(tx, { ...hit, tenantId: envelope.tenant_id, ruleId: rule.id });
      }
      afterCommit(tx, () => live.publish(envelope));
      return envelope;
    },
    async verifyAudit() {
      return transactions.system(async (tx) => {
        // The head first: the walk covers exactly the entries committed with it. An append committing during the
        // walk (its head and entry commit together) lies past it and is left for the next verification, rather
        // than read as a head pointing past the last entry.
        const [head] = await tx.select().from(auditChainHead).where(eq(auditChainHead.id, 1));
        const tip = head?.seq ?? 0;
        let prevHash = GENESIS;
        let expectedSeq = 1;
        let entries = 0;
        let after = 0;
        for (;;) {
          const batch = await tx
            .select()
            .from(auditLog)
            .where(and(gt(auditLog.seq, after), lte(auditLog.seq, tip)))
            .orderBy(asc(auditLog.seq))
            .limit(1000);
          for (const row of batch) {
            const intact =
              row.seq === expectedSeq &&
              row.prevHash === prevHash &&
              row.entryHash === auditEntryHash(prevHash, hashedFields(row));
            if (!intact) return { verified: false, entries, broken_seq: Math.min(row.seq, expectedSeq) };
            prevHash = row.entryHash;
            expectedSeq += 1;
            entries += 1;
          }
          if (batch.length < 1000) break;
          after = batch[batch.length - 1]!.seq;
        }
        // Entries removed from the tip leave the head pointing past the last entry.
        if (tip !== entries) return { verified: false, entries, broken_seq: entries + 1 };
        return { verified: true, entries, broken_seq: null };
      });
    },
  };
}

export async function initAuditChain(transactions: Transactions): Promise<void> {
  await transactions.system((tx) =>
    tx.insert(auditChainHead).values({ id: 1, seq: 0, hash: GENESIS }).onConflictDoNothing(),
  );
}
