import { useId } from 'react';
import { type Answer, useApi } from '../api';
import { useSession } from '../session';
import './agents-kit.css';

/**
 * Pieces the agents and approvals screens share and the common kit lacks: names for the API's agent and approval
 * shapes (generated from the service's OpenAPI document), a state tag, a permission picker of checkboxes, and names
 * for the ids the API answers with.
 */

/** GET /agents: one agent of the list (AgentView); GET /agents/{agent_id} adds its `delegations`. */
export type Agent = Answer<'/agents'>['agents'][number];

/** GET /agents/{agent_id}: the agent with its live delegations. */
export type AgentDetail = Answer<'/agents/{agent_id}'>;

/** GET /agents/{agent_id}: one live delegation. */
export type AgentDelegation = AgentDetail['delegations'][number];

/** GET /me/agents: one delegation the person granted. */
export type MyDelegation = Answer<'/me/agents'>['delegations'][number];

/** GET /approvals: one ask of the queue; GET /approvals/{id} adds its `decisions`. */
export type Approval = Answer<'/approvals'>['approvals'][number];

/** GET /authz/catalog */
export type Catalog = Answer<'/authz/catalog'>;

/** A number field's text as the API's number, or undefined when left empty. */
export const numberOrUndefined = (text: string | undefined) =>
  text === undefined || text.trim() === '' ? undefined : Number(text);

export { when } from './dates';

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
  const members = useApi<Answer<'/members'>>(session.can('members:read') ? '/members' : null, { limit: 500 });
  const agents = useApi<Answer<'/agents'>>(session.can('agents:read') ? '/agents' : null, { limit: 500 });
  const people = new Map(members.data?.map((m) => [m.user_id, m.email]) ?? []);
  const bots = new Map(agents.data?.agents.map((a) => [a.agent_id, a.name]) ?? []);
  return {
    person: (id) => (id ? (id === session.me.user_id ? 'you' : (people.get(id) ?? id)) : '—'),
    agent: (id) => (id ? (bots.get(id) ?? id) : '—'),
  };
}
