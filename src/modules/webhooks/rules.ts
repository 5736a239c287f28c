import { webhookEventTypes } from '../../kernel/events/index.js';
import { badRequest } from '../../kernel/http/index.js';

export const MAX_ENDPOINTS_PER_ORGANIZATION = 25;

/** Unknown event types are a 400 (Part A 7); duplicates are dropped. */
export function assertEventTypes(types: readonly string[]): string[] {
  const known = new Set(webhookEventTypes().map((type) => type.name));
  const unknown = types.find((type) => !known.has(type));
  if (unknown) throw badRequest(`Unknown event type: ${unknown}`);
  return [...new Set(types)];
}
