import { expect } from 'vitest';
import { type JsonResponse, request } from './http.js';

/** `POST /api/v1/agents` as `token`; fails loudly unless 201. Answers the record with its one-time `credential`. */
export async function registerAgent(
  svc: { url: string },
  ownerToken: string,
  body: Record<string, unknown> = {},
): Promise<{ agent_id: string; name: string; credential: string } & Record<string, any>> {
  const res = await request(`${svc.url}/api/v1/agents`, {
    token: ownerToken,
    json: { name: `agent ${Math.random().toString(36).slice(2, 8)}`, ...body },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** `POST /api/v1/agents/{agentId}/delegations` as `token`: the raw answer (201, or a refusal to check). */
export function delegate(
  svc: { url: string },
  token: string,
  agentId: string,
  permissions: string[],
  expiresInDays?: number,
): Promise<JsonResponse> {
  return request(`${svc.url}/api/v1/agents/${agentId}/delegations`, {
    token,
    json: { permissions, ...(expiresInDays === undefined ? {} : { expires_in_days: expiresInDays }) },
  });
}
