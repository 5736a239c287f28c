export { hostNameRefusalReason, isPublicAddress, refusalReason } from './address-policy.js';
export { createDns, type Dns, type MxRecord, type ResolvedAddress } from './dns.js';
export {
  createEgress,
  type Egress,
  type EgressDeps,
  EgressError,
  type EgressErrorCode,
  type EgressRequestOptions,
  type EgressResponse,
} from './egress.js';
export { fetchJsonDocument, JSON_DOCUMENT_BYTES, type JsonDocument } from './json-document.js';
export { assertOutboundUrl } from './outbound-url.js';
