/**
 * The one catalogue of event names (`resource.past_verb`). `webhook` marks the types published to
 * subscribed webhook endpoints (Part A 6, schema version 1); the rest are Command Center and audit events.
 */
export interface EventType {
  name: string;
  description: string;
  webhook: boolean;
}

export const EVENT_TYPES: readonly EventType[] = [
  { name: 'user.signed_up', description: 'A user registered in the organization', webhook: true },
  { name: 'user.login_throttled', description: 'Repeated failed sign-ins for a user were rate-limited', webhook: true },
  { name: 'user.sessions_revoked', description: 'All sessions of a user were revoked', webhook: true },
  { name: 'user.email_verified', description: 'A user confirmed an email address', webhook: true },
  { name: 'apikey.issued', description: 'An API key was created', webhook: true },
  { name: 'apikey.revoked', description: 'An API key was revoked', webhook: true },
  { name: 'apikey.rotated', description: 'An API key was rotated', webhook: true },
  { name: 'apikey.quota_exceeded', description: 'The monthly API quota is spent', webhook: true },
  { name: 'oauth.client_created', description: 'An OAuth application was registered', webhook: true },
  { name: 'oauth.client_deleted', description: 'An OAuth application was removed', webhook: true },
  {
    name: 'content.published',
    description:
      'A page went live or its live version changed (reserved: nothing publishes it until content management exists)',
    webhook: true,
  },
  { name: 'user.logged_in', description: 'A user signed in', webhook: false },
  { name: 'oauth.client_updated', description: 'An OAuth client registration was changed', webhook: false },
  {
    name: 'oauth.client_secret_rotated',
    description: 'An OAuth client got a new secret; the previous one stopped working',
    webhook: false,
  },
  { name: 'oauth.token_issued', description: 'The token endpoint issued an access token to a client', webhook: false },
  {
    name: 'oauth.client_authentication_failed',
    description: 'A client failed to authenticate at the token endpoint',
    webhook: false,
  },
  {
    name: 'oauth.authorization_granted',
    description: 'The authorization endpoint issued a code to a client for a user',
    webhook: false,
  },
  { name: 'oauth.consent_granted', description: 'A user approved a client on the consent page', webhook: false },
  {
    name: 'oauth.consent_revoked',
    description: "A user revoked a connected app's consent; its grants ended",
    webhook: false,
  },
  {
    name: 'oauth.authorization_code_replayed',
    description: 'A spent authorization code was presented again; the grant it minted ended',
    webhook: false,
  },
  {
    name: 'oauth.backchannel_logout_sent',
    description: 'A logout token was delivered to a client back-channel logout URI',
    webhook: false,
  },
  {
    name: 'oauth.backchannel_logout_failed',
    description: 'A logout token could not be delivered (best effort, not retried)',
    webhook: false,
  },
  { name: 'oauth.resource_created', description: 'A protected resource (RFC 8707) was registered', webhook: false },
  {
    name: 'oauth.resource_updated',
    description: 'A protected resource was renamed, enabled or disabled',
    webhook: false,
  },
  { name: 'user.login_failed', description: 'A sign-in for an existing account failed', webhook: false },
  { name: 'session.logged_out', description: 'A user ended a session', webhook: false },
  {
    name: 'session.refresh_replayed',
    description: 'A rotated refresh token was presented again; the session ended',
    webhook: false,
  },
  { name: 'tenant.bootstrapped', description: 'The platform-operator organization was created', webhook: false },
  { name: 'user.password_changed', description: 'A user changed their password; other sessions ended', webhook: false },
  { name: 'user.password_reset', description: 'A password was reset with an emailed link', webhook: false },
  { name: 'user.profile_updated', description: 'A user changed their profile names', webhook: false },
  { name: 'session.revoked', description: 'A user ended one of their sessions', webhook: false },
  { name: 'mfa.enrollment_started', description: 'A user began TOTP enrollment (not enabled yet)', webhook: false },
  { name: 'mfa.enabled', description: 'A user enabled TOTP as a second factor', webhook: false },
  { name: 'mfa.disabled', description: 'A user turned TOTP off', webhook: false },
  {
    name: 'mfa.recovery_codes_regenerated',
    description: 'A user replaced their recovery codes; the old ones stopped working',
    webhook: false,
  },
  { name: 'mfa.recovery_code_used', description: 'A recovery code was spent', webhook: false },
  { name: 'mfa.challenge_failed', description: 'A wrong code was sent to an MFA challenge', webhook: false },
  { name: 'passkey.registered', description: 'A user registered a passkey', webhook: false },
  { name: 'passkey.removed', description: 'A user removed a passkey', webhook: false },
  {
    name: 'passkey.clone_suspected',
    description: 'A passkey presented a signature counter that went backwards; the sign-in was refused',
    webhook: false,
  },
  { name: 'magic_link.sent', description: 'A sign-in link was mailed to a member', webhook: false },
  { name: 'early_access.requested', description: 'Someone joined the early-access waitlist', webhook: false },
  { name: 'early_access.confirmed', description: 'An early-access address was confirmed', webhook: false },
  { name: 'member.role_changed', description: 'A member’s role was changed', webhook: false },
  { name: 'custom_role.created', description: 'A custom role was created', webhook: false },
  {
    name: 'custom_role.updated',
    description: 'A custom role was renamed or its permissions changed (its holders’ next request)',
    webhook: false,
  },
  { name: 'custom_role.deleted', description: 'A custom role was deleted', webhook: false },
  { name: 'member.removed', description: 'A member was removed; their sessions ended', webhook: false },
  { name: 'member.joined', description: 'A person joined through a verified domain', webhook: false },
  { name: 'invitation.created', description: 'A person was invited', webhook: false },
  { name: 'invitation.reissued', description: 'A pending invitation was re-issued (old link dead)', webhook: false },
  { name: 'invitation.revoked', description: 'A pending invitation was revoked', webhook: false },
  { name: 'invitation.accepted', description: 'An invitation was redeemed; the membership exists', webhook: false },
  { name: 'domain.claimed', description: 'An email domain was claimed', webhook: false },
  { name: 'domain.verified', description: 'A claimed domain’s TXT proof was found', webhook: false },
  { name: 'domain.unverified', description: 'A verified domain’s TXT proof disappeared', webhook: false },
  { name: 'domain.deleted', description: 'A domain claim was withdrawn', webhook: false },
  { name: 'setting.changed', description: 'An organization setting was changed', webhook: false },
  // Command Center (issue 22): an operator settling detections and working incidents.
  { name: 'detection.acknowledged', description: 'An operator acknowledged a detection', webhook: false },
  { name: 'detection.resolved', description: 'An operator resolved a detection', webhook: false },
  { name: 'incident.opened', description: 'An operator opened an incident over detections', webhook: false },
  {
    name: 'incident.updated',
    description: "An incident's status, assignee, containment, remediation or root cause changed",
    webhook: false,
  },
  { name: 'privacy.data_exported', description: 'A person downloaded their own data', webhook: false },
  { name: 'privacy.request_created', description: 'A data-subject request was filed', webhook: false },
  { name: 'privacy.request_cancelled', description: 'A data-subject request was cancelled', webhook: false },
  { name: 'privacy.request_verified', description: 'A data-subject request was verified', webhook: false },
  { name: 'privacy.request_rejected', description: 'A data-subject request was rejected', webhook: false },
  { name: 'privacy.request_processed', description: 'A data-subject request was fulfilled', webhook: false },
  { name: 'consent.granted', description: 'A person granted consent for a purpose', webhook: false },
  { name: 'consent.withdrawn', description: 'A person withdrew consent for a purpose', webhook: false },
  { name: 'retention.policy_updated', description: 'A retention policy was set', webhook: false },
  { name: 'retention.records_purged', description: 'Records past a retention policy were purged', webhook: false },
  { name: 'scim.user_created', description: 'SCIM provisioned a user (a new or linked account)', webhook: false },
  { name: 'scim.user_updated', description: 'SCIM changed a user’s attributes', webhook: false },
  {
    name: 'scim.user_deactivated',
    description: 'SCIM deactivated a user: membership suspended, sessions ended',
    webhook: false,
  },
  { name: 'scim.user_reactivated', description: 'SCIM reactivated a suspended user', webhook: false },
  { name: 'scim.user_deleted', description: 'SCIM deprovisioned a user: membership removed', webhook: false },
  { name: 'scim.group_created', description: 'SCIM created a group', webhook: false },
  { name: 'scim.group_updated', description: 'SCIM renamed a group or changed its members', webhook: false },
  { name: 'scim.group_deleted', description: 'SCIM deleted a group', webhook: false },
  {
    name: 'scim.token_issued',
    description: 'A SCIM token was minted; a previous one stopped working',
    webhook: false,
  },
  { name: 'scim.token_revoked', description: 'The SCIM token was revoked; SCIM is dormant', webhook: false },
  { name: 'scim.config_changed', description: 'SCIM provisioning was paused or resumed', webhook: false },
  {
    name: 'sso.oidc_configured',
    description: 'The organization’s OIDC identity provider was configured or changed (never its secret)',
    webhook: false,
  },
  { name: 'sso.oidc_removed', description: 'The OIDC identity provider was removed; SSO is dormant', webhook: false },
  { name: 'sso.oidc_tested', description: 'An admin tested the OIDC identity provider connection', webhook: false },
  { name: 'sso.enforcement_changed', description: 'SSO was required or no longer required', webhook: false },
  {
    name: 'sso.user_provisioned',
    description: 'An SSO sign-in made a person a member (a new or linked account)',
    webhook: false,
  },
  {
    name: 'sso.sign_in_refused',
    description: 'An SSO round trip was refused (the reason is recorded, never shown)',
    webhook: false,
  },
  {
    name: 'sso.backchannel_logout',
    description: 'The identity provider signed a person out; their SSO sessions ended',
    webhook: false,
  },
  {
    name: 'sso.link_requested',
    description: 'An identity provider asserted an existing account’s address; its holder was mailed a link to confirm',
    webhook: false,
  },
  {
    name: 'sso.identity_linked',
    description: 'A person proved control of their account and linked it to the organization’s identity provider',
    webhook: false,
  },
  { name: 'sso.saml_configured', description: 'An admin configured the SAML identity provider', webhook: false },
  { name: 'sso.saml_removed', description: 'The SAML identity provider was removed; SAML is dormant', webhook: false },
  {
    name: 'sso.single_logout',
    description: 'The SAML identity provider signed a person out (single logout); their SSO sessions ended',
    webhook: false,
  },
  { name: 'social.identity_linked', description: 'A social provider account was linked to a person', webhook: false },
  { name: 'social.identity_unlinked', description: 'A person unlinked a social provider account', webhook: false },
  {
    name: 'social.sign_in_refused',
    description: 'A social sign-in round trip was refused (the reason is recorded, never shown)',
    webhook: false,
  },
  // Agent administration and delegations (issue 20).
  { name: 'agent.registered', description: 'An AI agent was registered (its credential shown once)', webhook: false },
  { name: 'agent.updated', description: "An agent's name, description or governance fields changed", webhook: false },
  {
    name: 'agent.suspended',
    description: 'An agent was suspended; its tokens are refused until resumed',
    webhook: false,
  },
  { name: 'agent.resumed', description: 'A suspended agent was resumed', webhook: false },
  {
    name: 'agent.retired',
    description: 'An agent was retired for good: its credential died, its delegations ended',
    webhook: false,
  },
  {
    name: 'agent.credential_rotated',
    description: 'An agent got a new credential; the old one and its tokens stopped working',
    webhook: false,
  },
  {
    name: 'agent.kill_switch_engaged',
    description: "An agent's kill switch was engaged (reason recorded)",
    webhook: false,
  },
  { name: 'agent.kill_switch_released', description: "An agent's kill switch was released", webhook: false },
  // Autonomous response (Part B 4.9, issue 26): the ledger's decisions and the autonomy kill switch.
  {
    name: 'autonomy.decision_recorded',
    description: 'A detection fed the autonomy ledger: a decision was recorded (shadow, dry run, proposed, unattended)',
    webhook: false,
  },
  {
    name: 'autonomy.decision_adjudicated',
    description: 'A person approved or denied an autonomy proposal (recorded before execution)',
    webhook: false,
  },
  {
    name: 'autonomy.decision_executed',
    description: 'An autonomy decision was executed, or expired because the world or a guard changed',
    webhook: false,
  },
  { name: 'autonomy.decision_reverted', description: 'An executed autonomy decision was reverted', webhook: false },
  {
    name: 'autonomy.kill_switch_changed',
    description: 'The autonomy kill switch was engaged or released (autonomy.disabled_until changed)',
    webhook: false,
  },
  {
    name: 'agent.delegation_granted',
    description: 'A person delegated some of their permissions to an agent',
    webhook: false,
  },
  { name: 'agent.delegation_revoked', description: 'A person revoked a delegation to an agent', webhook: false },
  // Federated workload identity (issue 20): trusted issuers, bindings, attestation exchanges.
  { name: 'agent_issuer.registered', description: 'An organization began trusting a workload issuer', webhook: false },
  { name: 'agent_issuer.updated', description: 'A trusted workload issuer was enabled or disabled', webhook: false },
  {
    name: 'agent_issuer.removed',
    description: 'A workload issuer is no longer trusted; its bindings went',
    webhook: false,
  },
  {
    name: 'agent_issuer.binding_added',
    description: "An issuer's attestations were bound to an agent",
    webhook: false,
  },
  {
    name: 'agent_issuer.binding_removed',
    description: 'A binding of an issuer to an agent was removed',
    webhook: false,
  },
  {
    name: 'agent_issuer.attestation_exchanged',
    description: 'An attestation was exchanged for an agent token (its jti is spent)',
    webhook: false,
  },
  {
    name: 'agent_issuer.attestation_refused',
    description: 'A federated exchange naming the organization was refused (the reason is recorded, never shown)',
    webhook: false,
  },
  // Agent tokens (issue 20).
  {
    name: 'agent.token_minted',
    description: 'An agent minted an access token (every task token; a plain token once per agent, path and hour)',
    webhook: false,
  },
  // Agent governance (issue 20): refusals with their reason code, and parked actions.
  {
    name: 'agent.task_token_refused',
    description: 'An agent asked for a task token beyond its authority, or naming nothing known (403, no token)',
    webhook: false,
  },
  {
    name: 'agent.action_refused',
    description: "Governance refused an agent's action (the reason code is recorded: kill switch, scope, budget…)",
    webhook: false,
  },
  {
    name: 'approval.requested',
    description: "A supervised agent's action was parked for a person's approval",
    webhook: false,
  },
  {
    name: 'approval.consumed',
    description: 'An approved agent action was retried and the approval spent',
    webhook: false,
  },
  // Content approvals (issue 21 item 5): agent-authored content reviewed by people, keyed on its SHA-256.
  {
    name: 'content.review_requested',
    description: 'An agent asked a person to review content it wrote (an approval request keyed on the content hash)',
    webhook: false,
  },
  {
    name: 'content.review_expired',
    description: "An agent's content ask ran out undecided after 24 hours and was written down as expired",
    webhook: false,
  },
  {
    name: 'content.approval_consumed',
    description: 'The approval of agent-authored content was spent, once, for its exact bytes',
    webhook: false,
  },
  {
    name: 'content.reversal_recorded',
    description: 'A person recorded that published agent-authored content had to be pulled (the agent in the data)',
    webhook: false,
  },
  // The approval queue (issue 21): each person's decision, audited with the approver, reason and bound hash.
  {
    name: 'approval.approved',
    description: 'An approval request was approved (its last required approval, or an owner breaking glass)',
    webhook: false,
  },
  { name: 'approval.denied', description: 'An approval request was denied', webhook: false },
  // The MCP tool gateway (issue 24): its registry, audited, and each proxied tool call.
  {
    name: 'mcp.server_registered',
    description: 'An upstream MCP server was registered with the gateway',
    webhook: false,
  },
  { name: 'mcp.server_updated', description: "A gateway MCP server's address, caps or switch changed", webhook: false },
  { name: 'mcp.server_deleted', description: 'An upstream MCP server was removed from the gateway', webhook: false },
  { name: 'mcp.tools_updated', description: "A gateway MCP server's tool allow-list was replaced", webhook: false },
  {
    name: 'mcp.tool_removed',
    description: "A tool was removed from a gateway MCP server's allow-list",
    webhook: false,
  },
  {
    name: 'mcp.tool_called',
    description: 'An agent called a tool of an upstream MCP server through the gateway',
    webhook: false,
  },
  // The operator plane (issue 27): the platform operator's commercial side, audited where it takes effect.
  { name: 'tenant.plan_changed', description: "A platform operator set an organization's plan", webhook: false },
  {
    name: 'operator_setting.changed',
    description: 'A platform operator changed one of the settings it imposes on an organization',
    webhook: false,
  },
  { name: 'pricing.updated', description: 'A platform operator replaced the pricing content', webhook: false },
  { name: 'licence.issued', description: 'A platform operator issued a signed licence', webhook: false },
  { name: 'licence.revoked', description: 'A platform operator revoked a licence', webhook: false },
  {
    name: 'distribution_credential.issued',
    description: 'A release download credential was issued for a licence',
    webhook: false,
  },
  {
    name: 'distribution_credential.revoked',
    description: 'A release download credential was revoked',
    webhook: false,
  },
  { name: 'release.published', description: 'A release was added to the catalogue', webhook: false },
  { name: 'release.yanked', description: 'A release was yanked: it stays listed, downloads refuse it', webhook: false },
  { name: 'release.downloaded', description: 'A distribution credential was sent to a release object', webhook: false },
  // IAM manifests (issue 23): each step of an apply, audited with the manifest hash as correlation_id.
  {
    name: 'manifest.step_applied',
    description: 'One step of an approved IAM manifest was applied (role, invite, resource binding or SSO scaffold)',
    webhook: false,
  },
  {
    name: 'manifest.step_failed',
    description: 'A step of an IAM manifest failed; applying again resumes',
    webhook: false,
  },
  { name: 'manifest.applied', description: 'Every step of an approved IAM manifest is applied', webhook: false },
  {
    name: 'approval.approval_recorded',
    description: "A person approved an approval request that still needs another person's approval",
    webhook: false,
  },
  // Agent onboarding (issue 23): invite codes, bootstrap attempts and their hosted verification.
  {
    name: 'onboarding_invite.issued',
    description: 'The platform operator issued an onboarding invite code',
    webhook: false,
  },
  {
    name: 'onboarding_invite.revoked',
    description: 'The platform operator revoked an onboarding invite code',
    webhook: false,
  },
  { name: 'onboarding.started', description: 'An agent began onboarding an organization for a person', webhook: false },
  {
    name: 'onboarding.email_confirmed',
    description: 'The person confirmed their email: the organization exists, quarantined until approval',
    webhook: false,
  },
  { name: 'onboarding.approved', description: 'The person approved the onboarding: quarantine lifted', webhook: false },
  {
    name: 'onboarding.denied',
    description: 'The person denied the onboarding: everything it made was removed',
    webhook: false,
  },
  {
    name: 'onboarding.released',
    description: "The onboarding agent's credential was released to its poll",
    webhook: false,
  },
  // Payment step-up (issue 25): elevations bound to one operation; never an amount in the data.
  {
    name: 'elevation.opened',
    description: 'A person opened a step-up or SCA elevation for one operation',
    webhook: false,
  },
  {
    name: 'elevation.factor_accepted',
    description: 'A correct factor was recorded on an SCA elevation that still needs another factor category',
    webhook: false,
  },
  { name: 'elevation.verified', description: 'An elevation was satisfied by the factors it needs', webhook: false },
  { name: 'elevation.failed', description: 'A wrong factor burned one of an elevation’s attempts', webhook: false },
  {
    name: 'elevation.consumed',
    description: 'A payment back end spent a satisfied elevation, once, and received its signed attestation',
    webhook: false,
  },
];

const BY_NAME = new Map(EVENT_TYPES.map((type) => [type.name, type]));

export const isKnownEventType = (name: string) => BY_NAME.has(name);
export const webhookEventTypes = () => EVENT_TYPES.filter((type) => type.webhook);
