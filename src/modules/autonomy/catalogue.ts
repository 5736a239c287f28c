// The autonomous-response catalogue (Part B 1.7, 2.8, 4.9): the five response classes with their ceilings, rate
// and spread caps and graduation bars, the actions each class takes, and which detection feeds which action.
// One table, read by the engine, the routes, the metrics, the graduation report and the drill.

export const RESPONSE_CLASSES = [
  'contain_source',
  'contain_non_human',
  'raise_assurance',
  'revoke_access',
  'disable_principal',
] as const;
export type ResponseClass = (typeof RESPONSE_CLASSES)[number];

/** Oversight levels, lowest first (Part A 2.13); a class's ceiling is enforced by the settings registry (400). */
export const LEVELS = ['manual', 'recommend', 'graduated', 'full'] as const;
export type Level = (typeof LEVELS)[number];

export const atMost = (level: Level, cap: Level): Level => (LEVELS.indexOf(level) <= LEVELS.indexOf(cap) ? level : cap);

export interface ClassPolicy {
  /** Executions per rolling hour in one organization (guard). */
  rateCap: number;
  /** Distinct targets acted on per rolling 24 hours in one organization (guard). */
  spreadCap: number;
  /** Graduation bar of the Wilson lower bound; null: the class never runs unattended on its record. */
  bar: number | null;
}

export const CLASS_POLICY: Record<ResponseClass, ClassPolicy> = {
  contain_source: { rateCap: 30, spreadCap: 50, bar: 0.9 },
  contain_non_human: { rateCap: 10, spreadCap: 10, bar: 0.9 },
  raise_assurance: { rateCap: 30, spreadCap: 50, bar: 0.9 },
  revoke_access: { rateCap: 10, spreadCap: 10, bar: 0.95 },
  // Its ceiling is `recommend`: it never graduates, and the graduation report has no entry for it.
  disable_principal: { rateCap: 5, spreadCap: 5, bar: null },
};

/** Graduation: at least this many days between the first and the last person's verdict in the window. */
export const MIN_SPAN_DAYS = 14;
export const REVERSAL_WINDOW_DAYS = 30;

export interface ResponseAction {
  id: string;
  responseClass: ResponseClass;
  /**
   * The permission a person needs to take this action by hand: approving or reverting it needs it besides
   * `autonomy:approve`. Null: no approver permission is declared, so the action can be neither approved nor
   * reverted (a recommendation only; a person acts through the ordinary routes).
   */
  approvePermission: string | null;
  /** The permission undoing it needs (null: as `approvePermission`). */
  revertPermission: string | null;
  revertible: boolean;
  /** Only people may revert it (403 for any other caller): releasing an agent's kill switch is a person's act. */
  revertByPeopleOnly: boolean;
}

export const ACTIONS: Record<string, ResponseAction> = {
  block_source: {
    id: 'block_source',
    responseClass: 'contain_source',
    // Containing a source by hand is an organization-wide security change: the administrator's permission.
    approvePermission: 'tenant:manage',
    revertPermission: 'tenant:manage',
    revertible: true,
    revertByPeopleOnly: false,
  },
  engage_agent_kill_switch: {
    id: 'engage_agent_kill_switch',
    responseClass: 'contain_non_human',
    approvePermission: 'agents:manage',
    revertPermission: 'agents:kill',
    revertible: true,
    revertByPeopleOnly: true,
  },
  require_step_up: {
    id: 'require_step_up',
    responseClass: 'raise_assurance',
    approvePermission: null,
    revertPermission: null,
    revertible: false,
    revertByPeopleOnly: false,
  },
  end_all_sessions: {
    id: 'end_all_sessions',
    responseClass: 'revoke_access',
    approvePermission: 'tenant:manage',
    revertPermission: 'tenant:manage',
    revertible: true,
    revertByPeopleOnly: false,
  },
  disable_oauth_client: {
    id: 'disable_oauth_client',
    responseClass: 'disable_principal',
    approvePermission: null,
    revertPermission: null,
    revertible: false,
    revertByPeopleOnly: false,
  },
};

/** What a detection's group is about: the target of the action its rule triggers. */
export type TargetKind = 'user' | 'agent' | 'source' | 'client';

export interface Trigger {
  ruleId: string;
  actionId: keyof typeof ACTIONS;
  target: TargetKind;
  /**
   * Someone other than the target can trip it on purpose, so acting on it unattended would hand an attacker a
   * lever against the target: the response stays at `recommend` whatever the class level (Part B 4.9).
   */
  attackerTrippable: boolean;
  /** Why (docs/autonomy.md lists these). */
  why: string;
}

/** Detections that feed the ledger (rule id -> response). Any other detection feeds nothing. */
export const TRIGGERS: readonly Trigger[] = [
  {
    ruleId: 'refresh-token-replay',
    actionId: 'end_all_sessions',
    target: 'user',
    attackerTrippable: true,
    why: 'anyone who once saw an old refresh token (a log, a shared device) can replay it to sign the person out everywhere',
  },
  {
    ruleId: 'passkey-clone-suspected',
    actionId: 'end_all_sessions',
    target: 'user',
    attackerTrippable: false,
    why: 'only an assertion really signed by the passkey moves its counter backwards',
  },
  {
    ruleId: 'agent-blast-radius-breaker',
    actionId: 'engage_agent_kill_switch',
    target: 'agent',
    attackerTrippable: false,
    why: "only the agent's own calls spend its budget and refusal allowance",
  },
  {
    ruleId: 'agent-task-scope-exceeded',
    actionId: 'engage_agent_kill_switch',
    target: 'agent',
    attackerTrippable: false,
    why: "only the holder of the agent's credential or task token can ask outside its scope",
  },
  {
    ruleId: 'credential-stuffing',
    actionId: 'block_source',
    target: 'source',
    attackerTrippable: false,
    why: 'the containment falls on the source that failed the sign-ins, nobody else',
  },
  {
    ruleId: 'repeated-sign-in-failures',
    actionId: 'require_step_up',
    target: 'user',
    attackerTrippable: true,
    why: "anyone who knows an email address can fail sign-ins against it until the person's throttle engages",
  },
  {
    ruleId: 'authorization-code-replay',
    actionId: 'disable_oauth_client',
    target: 'client',
    attackerTrippable: true,
    why: 'whoever intercepted an authorization code can replay it against its client',
  },
];

const BY_RULE = new Map(TRIGGERS.map((trigger) => [trigger.ruleId, trigger]));
export const triggerOf = (ruleId: string): Trigger | undefined => BY_RULE.get(ruleId);
export const actionOf = (actionId: string): ResponseAction => {
  const action = ACTIONS[actionId];
  if (!action) throw new Error(`unknown autonomy action ${actionId}`);
  return action;
};

/** The detection every change of a class's level raises (Part B 6.3 "autonomy changes"): who let autonomy act. */
export const LEVEL_CHANGE_DETECTION = 'autonomy-level-changed';

/** The detection every kill-switch change raises (Part B 3, 6.3), like the agents' kill switch. */
export const KILL_SWITCH_DETECTION = 'autonomy-kill-switch-changed';
export const OFFERED_HOURS = [1, 8, 24] as const;
/** How an indefinite kill switch is stored in `autonomy.disabled_until`: an expiry that never comes. */
export const INDEFINITE_UNTIL = '9999-12-31T23:59:59.000Z';
