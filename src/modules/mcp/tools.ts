import { type TObject, Type } from '@sinclair/typebox';
import type { Principal } from '../../kernel/auth/index.js';
import { permissionRisk } from '../../kernel/authz/catalog.js';
import { notFound } from '../../kernel/http/index.js';
import { isUuid } from '../../kernel/ids.js';
import type { AgentState, AgentTask } from '../agents/index.js';
import type { CommandDeps } from '../command/index.js';
import {
  AcknowledgeBody,
  AuditQuery,
  createAuditReader,
  createDetectionsService,
  DetectionListQuery,
  DetectionParams,
  type DetectionView,
  operableDetection,
  operableScope,
} from '../command/index.js';
import { ManifestEnvelope } from '../manifests/index.js';
import type { McpDeps } from './deps.js';

// The first-party tools (Part B 4.4; ARCHITECTURE.md "Tools are services"): each calls the module's service
// in-process, its `inputSchema` is the TypeBox schema of the matching REST body or query (closed: unknown keys are
// refused), and its result is a projection naming only documented fields (no session ids, addresses, correlation
// data, free-form event data).

export type ToolKind = 'read' | 'write';

export interface Tool {
  name: string;
  description: string;
  /** `read` tools have no dry run; `write` tools answer one with their effect. */
  kind: ToolKind;
  /** The permission the tool needs (none: any agent). Its catalogue risk is the tool's score. */
  permission: string | undefined;
  /** A person approves each call (per-call park, bound to the tool name and arguments). */
  perCallApproval: boolean;
  inputSchema: TObject;
  run(principal: Principal, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** The effect a write would have, with no side effect (write tools only). */
  dryRun?(principal: Principal, args: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** The tool's risk score: its permission's catalogue risk; `whoami` scores 0. */
export const toolRisk = (tool: Tool) => (tool.permission ? permissionRisk(tool.permission) : 0);

/** A REST schema closed to unknown keys, as an MCP `inputSchema` (always an object). */
const closed = (schema: TObject, extra: Partial<TObject> = {}): TObject =>
  ({ ...schema, additionalProperties: false, ...extra }) as TObject;

const detectionOf = (view: DetectionView) => ({
  id: view.id,
  tenant_id: view.tenant_id,
  rule_id: view.rule_id,
  severity: view.severity,
  status: view.status,
  count: view.count,
  first_seen: view.first_seen,
  last_seen: view.last_seen,
  note: view.note,
});

const SETTLE_FROM: Record<string, string[]> = { acknowledged: ['open'], resolved: ['open', 'acknowledged'] };

export function createTools(deps: McpDeps): readonly Tool[] {
  const command: CommandDeps = {
    config: deps.config,
    transactions: deps.transactions,
    events: deps.events,
    clock: deps.clock,
    isPlatformOperator: deps.isPlatformOperator,
  };
  const detections = createDetectionsService(command);
  const audit = createAuditReader(command);
  const { manifests, pricing } = deps;

  return [
    {
      name: 'whoami',
      description: 'The calling agent: its id, name, organization, governance and the permissions it may use now',
      kind: 'read',
      permission: undefined,
      perCallApproval: false,
      inputSchema: Type.Object({}, { additionalProperties: false }),
      async run(principal) {
        const agent = principal.attributes.agent as AgentState;
        const task = principal.attributes.task as AgentTask | undefined;
        const permissions = [...principal.permissions]
          .filter((code) => !task || task.permissions.includes(code))
          .sort();
        return {
          agent_id: agent.agentId,
          name: agent.name,
          tenant_id: agent.tenantId,
          oversight_mode: agent.oversightMode,
          risk_ceiling: agent.riskCeiling,
          permissions,
          task: task ? { id: task.id, task: task.task, budget: task.budget } : null,
        };
      },
    },
    {
      name: 'list_detections',
      description: 'Detections (deduplicated groups), newest first; the filters of GET /command/detections',
      kind: 'read',
      permission: 'command:read',
      perCallApproval: false,
      inputSchema: closed(DetectionListQuery),
      async run(principal, args) {
        const found = await detections.list(principal, args);
        return { detections: found.detections.map(detectionOf) };
      },
    },
    {
      name: 'query_audit',
      description: 'Audit-chain entries, newest first; the filters of GET /command/audit',
      kind: 'read',
      permission: 'command:read',
      perCallApproval: false,
      inputSchema: closed(AuditQuery),
      async run(principal, args) {
        const page = await audit.list(principal, args as unknown as Parameters<typeof audit.list>[1]);
        return {
          entries: page.entries.map((entry) => ({
            seq: entry.seq,
            tenant_id: entry.tenant_id,
            event_id: entry.event_id,
            occurred_at: entry.occurred_at,
            actor_id: entry.actor_id,
            actor_type: entry.actor_type,
            action: entry.action,
            outcome: entry.outcome,
            compliance_tags: entry.compliance_tags,
            entry_hash: entry.entry_hash,
          })),
          next_cursor: page.next_cursor,
        };
      },
    },
    {
      name: 'read_entitlements',
      description: "The organization's plan: its features and caps (GET /entitlements)",
      kind: 'read',
      permission: 'command:read',
      perCallApproval: false,
      inputSchema: Type.Object({}, { additionalProperties: false }),
      async run(principal) {
        const { plan_code, name, features, caps } = await pricing.entitlements(principal);
        return { plan_code, name, features, caps };
      },
    },
    {
      name: 'assure_latest_report',
      description: "The latest assurance run's report for the organization; `report` is null when no run has reported",
      kind: 'read',
      permission: 'command:read',
      perCallApproval: false,
      inputSchema: Type.Object({}, { additionalProperties: false }),
      // No assurance runner reports to this deployment (the specification shows no reporting surface): null.
      async run() {
        return { report: null };
      },
    },
    {
      name: 'plan_manifest',
      description: 'What applying a manifest would do now, step by step (POST /manifest/plan; read-only)',
      kind: 'read',
      permission: 'manifest:plan',
      perCallApproval: false,
      inputSchema: closed(ManifestEnvelope, { required: ['manifest'] }),
      run: (principal, args) => manifests.plan(principal, args),
    },
    {
      name: 'request_manifest_approval',
      description:
        'Ask a person to approve a manifest (POST /manifest/request-approval): creates a pending decision bound to its content hash',
      kind: 'read',
      permission: 'manifest:apply',
      perCallApproval: false,
      inputSchema: closed(ManifestEnvelope, { required: ['manifest'] }),
      run: (principal, args) => manifests.requestApproval(principal, args),
    },
    {
      name: 'acknowledge_detection',
      description:
        'Acknowledge (default) or resolve a detection (POST /command/detections/{id}/acknowledge); each call waits for a person’s approval, and the identical retry after it runs',
      kind: 'write',
      permission: 'command:operate',
      perCallApproval: true,
      inputSchema: Type.Object(
        { id: DetectionParams.properties.id, ...AcknowledgeBody.properties },
        { additionalProperties: false },
      ),
      async run(principal, args) {
        const { id, ...body } = args as { id: string; status?: 'acknowledged' | 'resolved'; note?: string };
        return detectionOf(await detections.acknowledge(principal, id, body));
      },
      async dryRun(principal, args) {
        const { id, status = 'acknowledged' } = args as { id: string; status?: string };
        if (!isUuid(id)) throw notFound('Detection not found');
        const scope = await operableScope(command, principal);
        const read = (tx: Parameters<typeof operableDetection>[0]) => operableDetection(tx, scope, id);
        const row = scope.platformLevel
          ? await deps.transactions.system(read)
          : await deps.transactions.tenantRead(scope.tenantId, read);
        if (!row) throw notFound('Detection not found');
        const allowed = SETTLE_FROM[status]!.includes(row.status);
        return {
          detection_id: row.id,
          from: row.status,
          to: status,
          would: allowed ? 'change' : 'conflict',
          ...(allowed ? {} : { reason: `Detection is ${row.status}: it cannot become ${status}` }),
        };
      },
    },
    {
      name: 'apply_manifest',
      description:
        'Apply a manifest a person approved (POST /manifest/apply), against its approved content hash; a dry run answers the plan',
      kind: 'write',
      permission: 'manifest:apply',
      perCallApproval: false,
      inputSchema: closed(ManifestEnvelope, { required: ['manifest'] }),
      run: (principal, args) => manifests.apply(principal, args),
      dryRun: (principal, args) => manifests.plan(principal, args),
    },
  ];
}
