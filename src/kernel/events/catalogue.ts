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
  { name: 'content.published', description: 'A page went live or its live version changed', webhook: true },
  { name: 'user.logged_in', description: 'A user signed in', webhook: false },
  { name: 'user.login_failed', description: 'A sign-in for an existing account failed', webhook: false },
  { name: 'session.logged_out', description: 'A user ended a session', webhook: false },
  {
    name: 'session.refresh_replayed',
    description: 'A rotated refresh token was presented again; the session ended',
    webhook: false,
  },
  { name: 'tenant.bootstrapped', description: 'The platform-operator organization was created', webhook: false },
];

const BY_NAME = new Map(EVENT_TYPES.map((type) => [type.name, type]));

export const isKnownEventType = (name: string) => BY_NAME.has(name);
export const webhookEventTypes = () => EVENT_TYPES.filter((type) => type.webhook);
