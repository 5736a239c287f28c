export { EVENT_TYPES, type EventType, isKnownEventType, webhookEventTypes } from './catalogue.js';
export {
  type Actor,
  type ActorType,
  type AuditVerification,
  auditEntryHash,
  createEvents,
  type DetectionInput,
  type DetectionRule,
  type EmitInput,
  type EventEnvelope,
  type Events,
  envelopeOf,
  hashedFields,
  initAuditChain,
  type Outcome,
  type RaisedDetection,
  type Severity,
} from './events.js';
export { createLiveStream, type LiveStream } from './live-stream.js';
