/** Types and labels shared by the privacy screens (docs/privacy.md). */

/** A data-subject request (docs/privacy.md). */
export interface PrivacyRequest {
  id: string;
  user_id: string;
  request_type: 'access' | 'export' | 'erasure' | 'rectification';
  description: string | null;
  status: 'pending' | 'verified' | 'completed' | 'rejected' | 'cancelled';
  created_at: string;
  due_at: string;
  verified_at: string | null;
  resolved_at: string | null;
  rejection_reason: string | null;
}
export interface ProcessOutcome {
  request: PrivacyRequest;
  data: unknown;
  erased_sections: string[] | null;
}

export const REQUEST_TYPES = ['access', 'export', 'erasure', 'rectification'] as const;
export const TYPE_LABELS: Record<string, string> = {
  access: 'Access (a copy of the data)',
  export: 'Export (portable copy)',
  erasure: 'Erasure',
  rectification: 'Rectification',
};
export const isOpen = (request: PrivacyRequest) => request.status === 'pending' || request.status === 'verified';
