import { useId } from 'react';
import { useApi } from '../api';
import { useSession } from '../session';
import './agents-kit.css';

/**
 * Pieces the agents and approvals screens share and the common kit lacks: the API's agent and approval shapes
 * (from src/modules/agents/http-schemas.ts and src/modules/approvals/http-schemas.ts), a state tag, a
 * permission picker of checkboxes, a filter bound to the URL, and names for the ids the API answers with.
 */

/** GET /agents/{id} minus `delegations` (AgentView). */
export interface Agent {
  agent_id: string;
  name: string;
  description: string | null;
  status: 'active' | 'suspended' | 'retired';
  oversight_mode: 'autonomous' | 'supervised';
  risk_ceiling: number;
  confidence_floor: number;
  write_budget_per_hour: number | null;
  kill_switch: {
    engaged: boolean;
    reason: string | null;
    engaged_by: { id: string; type: string } | null;
    changed_at: string | null;
  };
  credential_prefix: string;
  credential_issued_at: string;
  created_by_user_id: string | null;
  created_at: string;
  updated_at: string;
  suspended_at: string | null;
  retired_at: string | null;
}

export interface AgentDelegation {
  delegation_id: string;
  delegator_user_id: string;
  permissions: string[];
  expires_at: string | null;
  created_at: string;
}

export type AgentDetail = Agent & { delegations: AgentDelegation[] };

/** GET /me/agents */
export interface MyDelegation {
  delegation_id: string;
  agent_id: string;
  agent_name: string;
  agent_status: string;
  permissions: string[];
  expires_at: string | null;
  created_at: string;
}

/** GET /approvals/{id} (ApprovalDetail); the queue's rows have no `decisions`. */
export interface Approval {
  id: string;
  approval_id: string;
  status: 'pending' | 'approved' | 'denied' | 'expired' | 'consumed';
  agent_id: string | null;
  resource_type: string;
  resource: Record<string, unknown> | null;
  fingerprint: string;
  required_permission: string | null;
  required_approvals: number;
  approvals_recorded: number;
  justification: string | null;
  requested_by: string | null;
  created_at: string;
  expires_at: string;
  decided_at: string | null;
  decided_by: string | null;
  reason: string | null;
  consumed_at: string | null;
  decisions?: {
    decided_by: string;
    approve: boolean;
    reason: string | null;
    break_glass: boolean;
    decided_at: string;
  }[];
}

/** GET /authz/catalog (the part these screens read). */
export interface Catalog {
  permissions: { code: string; read_only: boolean; risk: number; description: string }[];
}

/** A number field's text as the API's number, or undefined when left empty. */
export const numberOrUndefined = (text: string | undefined) =>
  text === undefined || text.trim() === '' ? undefined : Number(text);

export const when = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' }) : '—';

const TONES: Record<string, 'good' | 'warn' | 'bad' | undefined> = {
  active: 'good',
  approved: 'good',
  consumed: 'good',
  pending: 'warn',
  suspended: 'warn',
  supervised: 'warn',
  retired: 'bad',
  denied: 'bad',
  expired: 'bad',
  engaged: 'bad',
};

/** A word in a coloured pill (colour repeats the word, never replaces it). */
export function StateTag(props: { value: string; label?: string }) {
  const tone = TONES[props.value];
  return <span className={tone ? `state state-${tone}` : 'state'}>{props.label ?? props.value}</span>;
}

/**
 * Checkboxes for permission codes (`name` repeats, so the Form's values join them with newlines). Offers only
 * `codes` (the caller's own, which is all the API lets them delegate), with the catalogue's description and
 * risk, and marks those above `riskCeiling`.
 */
export function PermissionPicker(props: {
  name: string;
  legend: string;
  codes: string[];
  catalog: Catalog | undefined;
  riskCeiling?: number;
}) {
  const byCode = new Map(props.catalog?.permissions.map((p) => [p.code, p]) ?? []);
  const hintId = useId();
  return (
    <fieldset className="permission-picker" aria-describedby={hintId}>
      <legend>{props.legend}</legend>
      <p id={hintId} className="hint">
        Only permissions you hold yourself can be delegated.
      </p>
      {props.codes.map((code) => {
        const entry = byCode.get(code);
        const above = entry && props.riskCeiling !== undefined && entry.risk > props.riskCeiling;
        return (
          <label key={code}>
            <input type="checkbox" name={props.name} value={code} />
            <span>
              <code>{code}</code>
              {entry && (
                <span className="muted">
                  {' '}
                  · risk {entry.risk} · {entry.description}
                </span>
              )}
              {above && <span className="state state-warn">above this agent's risk ceiling: refused</span>}
            </span>
          </label>
        );
      })}
    </fieldset>
  );
}

/**
 * Names for ids the API answers with: people (their email, from GET /members when the person may read the
 * roster) and agents (from GET /agents when they may read agents). Unknown ids show as themselves.
 */
export function useNames(): {
  person(id: string | null | undefined): string;
  agent(id: string | null | undefined): string;
} {
  const session = useSession();
  const members = useApi<{ user_id: string; email: string }[]>(session.can('members:read') ? '/members' : null, {
    limit: 500,
  });
  const agents = useApi<{ agents: Agent[] }>(session.can('agents:read') ? '/agents' : null, { limit: 500 });
  const people = new Map(members.data?.map((m) => [m.user_id, m.email]) ?? []);
  const bots = new Map(agents.data?.agents.map((a) => [a.agent_id, a.name]) ?? []);
  return {
    person: (id) => (id ? (id === session.me.user_id ? 'you' : (people.get(id) ?? id)) : '—'),
    agent: (id) => (id ? (bots.get(id) ?? id) : '—'),
  };
}
