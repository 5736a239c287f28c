import { sql } from 'drizzle-orm';
import { rows } from '../../src/kernel/db/index.js';
import { request } from './http.js';
import type { TestService } from './service.js';

/** Data-subject request steps over HTTP, and the audit trail of one request. */
export function privacySteps(svc: () => TestService) {
  const api = (path: string) => `${svc().url}/api/v1${path}`;
  return {
    /** `POST /gdpr/requests` as the subject. */
    file: (token: string, json: unknown) => request(api('/gdpr/requests'), { token, json }),
    /** `POST /gdpr/admin/requests/{id}/{step}` (verify, reject, process). */
    admin: (token: string, id: string, step: string, json?: unknown) =>
      request(api(`/gdpr/admin/requests/${id}/${step}`), { method: 'POST', token, ...(json ? { json } : {}) }),
    /** The audit actions recorded for one request, in chain order. */
    async auditActionsOf(requestId: string): Promise<string[]> {
      const found = await rows<{ action: string }>(
        svc().deps.database.db,
        sql`select action from audit_log where data->>'request_id' = ${requestId} order by seq`,
      );
      return found.map((r) => r.action);
    },
  };
}
