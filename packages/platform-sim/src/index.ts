/**
 * platform-sim: a local stand-in for GitHub, Argo CD and a Kubernetes API,
 * for the promotions plugins' tests and local runs. Test equipment only.
 */
export { startPlatformSim } from './sim';
export type { RunningSim } from './sim';
export { WebhookSender, signWebhookBody } from './webhooks/webhookSender';
export { GITHUB_WRITE_LIMITS, SIMULATOR_WRITE_BUDGET, SIMULATOR_WRITE_PACING } from './github/secondaryWriteLimit';
export type { WriteLimits } from './github/secondaryWriteLimit';
export type { WebhookTarget, WebhookDelivery } from './webhooks/webhookSender';
export { IncidentDesk } from './incidents/incidentDesk';
export type { SimIncident, IncidentDelivery } from './incidents/incidentDesk';
export {
  resolveOptions,
  DEFAULT_GITHUB_TOKENS,
  DEFAULT_PLATFORM,
  SEEDS_PLATFORM,
  PLATFORM_REPO_PLATFORM,
  ARGOCD_VERSIONS,
  APPLICATION_SOURCE_SHAPES,
  GITHUB_TREE_ENTRY_LIMIT,
} from './options';
export type {
  SimOptions,
  ArgocdVersion,
  ApplicationSourceShape,
  PlatformShape,
} from './options';
export type {
  SimControl,
  CiPushRequest,
  CiPushResult,
  AddProductRequest,
  AddedProduct,
  AppOverrideRequest,
  SimState,
  SimAppState,
  SimRolloutState,
} from './control/simControl';
export type { FaultSpec, FaultKind, ActiveFault } from './control/faults';
export type { OutageMode } from './control/outage';
export type { LoggedRequest, UpstreamTarget } from './control/requestLog';
export type { AppOverrides, SyncStatusCode } from './world/applicationState';
export {
  STAGES,
  releasePath,
  environmentPath,
  stageName,
} from './platform/layout';
export {
  renderRelease,
  parseRelease,
  setReleaseDigest,
} from './platform/releaseFile';
export type { ReleaseRecord } from './platform/releaseFile';
export {
  renderEnvironment,
  parseEnvironment,
} from './platform/environmentFile';
export type { EnvironmentRecord } from './platform/environmentFile';
export { SEED_PRODUCTS, seedDigest } from './seed/seedData';
export { digestFor, imageFor } from './seed/digests';
export { freePort } from './http/freePort';
export { startDockerRegistry, dockerRegistryInstalled, DOCKER_REGISTRY_BINARY } from './registry/dockerRegistry';
export type { RunningRegistry } from './registry/dockerRegistry';
export { pushImage, pushBlob, pushManifest, attachArtifact, referrersTag, imageContent } from './registry/ociPush';
export type { Descriptor as OciDescriptor, ImageContent } from './registry/ociPush';
export { startSigstoreAuthority, IN_TOTO_PAYLOAD_TYPE } from './registry/sigstoreAuthority';
export type { SigstoreAuthority, SignerIdentity } from './registry/sigstoreAuthority';
export { TRUSTED_ROOT_MEDIA_TYPE } from './registry/trustedRoot';
export {
  publishBuild,
  imageRepository,
  DEFAULT_BUILD_IDENTITIES,
  DEFAULT_SOURCE_REPO,
  FOREIGN_BUILDER_ID,
  FOREIGN_SOURCE_REPO,
  GITHUB_ACTIONS_ISSUER,
  SIGSTORE_BUNDLE_V03,
} from './registry/publishBuild';
export type { PublishBuildRequest, BuildFlags, BuildIdentities } from './registry/publishBuild';
export { cosignSignStatement, slsaProvenanceStatement, COSIGN_SIGN_V1, SLSA_PROVENANCE_V1 } from './registry/attestations';
export type { SlsaBuild } from './registry/attestations';
