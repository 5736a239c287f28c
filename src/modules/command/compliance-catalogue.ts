import type { SettingValue } from '../settings/index.js';

// The one compliance control catalogue (Part B 4.8 `GET /command/compliance/controls`). Each control is named by
// the tag the kernel writes on audit entries (`<framework>:<control>`, src/kernel/events/events.ts tags entries by
// category: `soc2:CC6.1`, `iso27001:A.8.5`, `gdpr:Art.30`…), and lists what evidences it: audit entries carrying
// its tag, audit entries of the named event actions, and settings that must hold a value. The Command Center's own
// events are tagged from here (`complianceTagsOf`), so a tag and the control it names cannot drift apart.

export const FRAMEWORKS = ['soc2', 'iso27001', 'gdpr'] as const;
export type Framework = (typeof FRAMEWORKS)[number];

export const FRAMEWORK_NAMES: Record<Framework, string> = {
  soc2: 'SOC 2 (AICPA Trust Services Criteria, 2017)',
  iso27001: 'ISO/IEC 27001:2022 Annex A',
  gdpr: 'GDPR (Regulation (EU) 2016/679)',
};

/** A setting whose current value is evidence: the control holds only while the setting has this value. */
export interface SettingEvidence {
  key: string;
  expected: SettingValue;
  why: string;
}

export interface Control {
  framework: Framework;
  /** The control's id in its framework (`CC6.1`, `A.8.5`, `Art.30`). */
  id: string;
  title: string;
  /** Event actions whose audit entries evidence the control, in addition to entries carrying its tag. */
  actions: readonly string[];
  settings: readonly SettingEvidence[];
}

/** Joining on a verified domain without an invitation skips the authorization step of provisioning. */
const INVITATION_ONLY: SettingEvidence = {
  key: 'members.domain_join_enabled',
  expected: false,
  why: 'every workforce member is invited and authorized by an administrator before getting access',
};

const INCIDENT_RESPONSE = ['incident.opened', 'incident.updated'];
const DETECTION_TRIAGE = ['detection.acknowledged', 'detection.resolved'];
const CONFIGURATION_CHANGES = [
  'setting.changed',
  'sso.oidc_configured',
  'sso.oidc_removed',
  'sso.saml_configured',
  'sso.saml_removed',
  'sso.enforcement_changed',
  'scim.config_changed',
  'retention.policy_updated',
  'oauth.client_updated',
];
const CREDENTIAL_CHANGES = [
  'user.password_changed',
  'user.password_reset',
  'mfa.enabled',
  'mfa.recovery_codes_regenerated',
  'passkey.registered',
  'apikey.rotated',
  'agent.credential_rotated',
];

export const CONTROLS: readonly Control[] = [
  {
    framework: 'soc2',
    id: 'CC6.1',
    title: 'Logical access security over protected information assets',
    actions: ['user.logged_in', 'user.login_failed', 'mfa.enabled', 'passkey.registered'],
    settings: [],
  },
  {
    framework: 'soc2',
    id: 'CC6.2',
    title: 'Users are registered and authorized before credentials are issued',
    actions: ['invitation.created', 'invitation.accepted', 'scim.user_created', 'agent.registered'],
    settings: [INVITATION_ONLY],
  },
  {
    framework: 'soc2',
    id: 'CC6.3',
    title: 'Access is modified and removed on role changes and departures (least privilege)',
    actions: [
      'member.role_changed',
      'member.removed',
      'scim.user_deactivated',
      'scim.user_deleted',
      'apikey.revoked',
      'agent.delegation_revoked',
      'agent.retired',
    ],
    settings: [],
  },
  {
    framework: 'soc2',
    id: 'CC7.2',
    title: 'System components are monitored for anomalies indicating malicious acts',
    actions: ['user.login_throttled', 'session.refresh_replayed', 'agent.action_refused'],
    settings: [],
  },
  {
    framework: 'soc2',
    id: 'CC7.3',
    title: 'Security events are evaluated to determine whether they are incidents',
    actions: DETECTION_TRIAGE,
    settings: [],
  },
  {
    framework: 'soc2',
    id: 'CC7.4',
    title: 'Security incidents are responded to: contained, remediated, communicated',
    actions: INCIDENT_RESPONSE,
    settings: [],
  },
  {
    framework: 'soc2',
    id: 'CC8.1',
    title: 'Changes to configuration are authorized and recorded',
    actions: CONFIGURATION_CHANGES,
    settings: [],
  },
  {
    framework: 'iso27001',
    id: 'A.5.15',
    title: 'Access control rules are applied',
    actions: ['member.role_changed', 'agent.delegation_granted', 'agent.delegation_revoked'],
    settings: [],
  },
  {
    framework: 'iso27001',
    id: 'A.5.16',
    title: 'Identities are managed over their whole life cycle',
    actions: [
      'invitation.accepted',
      'member.removed',
      'scim.user_created',
      'scim.user_deleted',
      'agent.registered',
      'agent.retired',
    ],
    settings: [INVITATION_ONLY],
  },
  {
    framework: 'iso27001',
    id: 'A.5.17',
    title: 'Authentication information is allocated and managed',
    actions: CREDENTIAL_CHANGES,
    settings: [],
  },
  {
    framework: 'iso27001',
    id: 'A.5.18',
    title: 'Access rights are provisioned, reviewed, modified and removed',
    actions: ['member.role_changed', 'member.removed', 'invitation.accepted'],
    settings: [],
  },
  {
    framework: 'iso27001',
    id: 'A.5.25',
    title: 'Information security events are assessed and decided on',
    actions: DETECTION_TRIAGE,
    settings: [],
  },
  {
    framework: 'iso27001',
    id: 'A.5.26',
    title: 'Information security incidents are responded to',
    actions: INCIDENT_RESPONSE,
    settings: [],
  },
  {
    framework: 'iso27001',
    id: 'A.8.5',
    title: 'Secure authentication',
    actions: ['user.logged_in', 'mfa.enabled', 'passkey.registered'],
    settings: [],
  },
  {
    framework: 'iso27001',
    id: 'A.8.16',
    title: 'Networks, systems and applications are monitored for anomalous behaviour',
    actions: ['user.login_throttled', 'session.refresh_replayed', 'agent.action_refused'],
    settings: [],
  },
  {
    framework: 'iso27001',
    id: 'A.8.32',
    title: 'Changes are subject to change management',
    actions: CONFIGURATION_CHANGES,
    settings: [],
  },
  {
    framework: 'gdpr',
    id: 'Art.5(1)(e)',
    title: 'Storage limitation: personal data kept no longer than necessary',
    actions: ['retention.policy_updated', 'retention.records_purged'],
    settings: [],
  },
  {
    framework: 'gdpr',
    id: 'Art.7',
    title: 'Consent is recorded and can be withdrawn',
    actions: ['consent.granted', 'consent.withdrawn'],
    settings: [],
  },
  {
    framework: 'gdpr',
    id: 'Art.12',
    title: 'Data-subject rights (Art. 15-22) are handled and answered',
    actions: [
      'privacy.data_exported',
      'privacy.request_created',
      'privacy.request_verified',
      'privacy.request_rejected',
      'privacy.request_processed',
    ],
    settings: [],
  },
  {
    framework: 'gdpr',
    id: 'Art.30',
    title: 'Records of processing activities are kept',
    actions: [
      'privacy.request_created',
      'privacy.request_processed',
      'privacy.data_exported',
      'consent.granted',
      'consent.withdrawn',
      'retention.policy_updated',
      'retention.records_purged',
    ],
    settings: [],
  },
  {
    framework: 'gdpr',
    id: 'Art.32',
    title: 'Security of processing: appropriate technical measures',
    actions: CREDENTIAL_CHANGES,
    settings: [],
  },
  {
    framework: 'gdpr',
    id: 'Art.33',
    title: 'Personal-data breaches are documented (facts, effects, remedial action)',
    actions: INCIDENT_RESPONSE,
    settings: [],
  },
];

/** The tag the kernel writes for a control on audit entries, e.g. `soc2:CC6.1`. */
export const tagOf = (control: Pick<Control, 'framework' | 'id'>) => `${control.framework}:${control.id}`;

export const isFramework = (value: string | undefined): value is Framework =>
  (FRAMEWORKS as readonly string[]).includes(value ?? '');

export const controlsOf = (framework: Framework) => CONTROLS.filter((control) => control.framework === framework);

/** The compliance tags of an audit entry for `action`: every control that lists the action as its evidence. */
export function complianceTagsOf(action: string): string[] {
  return CONTROLS.filter((control) => control.actions.includes(action)).map(tagOf);
}
