// The manifests module's in-process interface, as onboarding uses it (BRIEF "Interfaces between helpers").
export { createManifestPlanner, parseManifest, recordApprovedManifestAsk } from '../manifests/index.js';
