/** Types and labels shared by the privacy screens (docs/privacy.md). */

import type { Answer } from '../api';

/**
 * A data-subject request (docs/privacy.md), as GET /api/v1/gdpr/requests (one's own) and GET
 * /api/v1/gdpr/admin/requests (the organization's) list it.
 */
export type PrivacyRequest = Answer<'/gdpr/requests'>['requests'][number];
/** POST /api/v1/gdpr/admin/requests/{id}/process: the completed request, the export or the erased sections. */
export type ProcessOutcome = Answer<'/gdpr/admin/requests/{id}/process', 'post'>;

export const REQUEST_TYPES = ['access', 'export', 'erasure', 'rectification'] as const;
export const TYPE_LABELS: Record<string, string> = {
  access: 'Access (a copy of the data)',
  export: 'Export (portable copy)',
  erasure: 'Erasure',
  rectification: 'Rectification',
};
export const isOpen = (request: PrivacyRequest) => request.status === 'pending' || request.status === 'verified';
