import { possessive } from '../../names';
import {
  findRollout,
  imageDigest,
  runningImages,
} from '../../argo/application';
import { imagesForService } from '../../argo/serviceImages';
import type { Application, ApplicationStatus } from '../../argo/types';
import {
  GitComparison,
  gitComparison,
  SyncOperationState,
  syncOperationState,
} from '../argoFacts';
import { judgeReleaseApplied, ReleaseApplied } from '../releaseApplied';
import type { ServiceHealthInput } from '../serviceHealthTypes';
import { readRollout, RolloutReading } from './rolloutCheck';

/** What every check reads, read once from the Application, the Rollout and the Release. */
export interface ServiceFacts {
  service: string;
  input: ServiceHealthInput;
  app: Application;
  status: ApplicationStatus;
  appLabel: string;
  syncStatus?: string;
  comparison: GitComparison;
  syncOperation: SyncOperationState;
  /** Not Synced yet, or a sync is running: what is missing may still come. */
  settling: boolean;
  /** The released digest, lower case as running digests are. */
  released?: string;
  /** Has ArgoCD applied the current Release for this service? Decided by the Application's shape. */
  applied: ReleaseApplied;
  rollout: RolloutReading;
  /** The Rollout is Healthy and its canary, if any, complete. */
  rolloutDone: boolean;
  /** The service's running images (`status.summary.images`). */
  images: string[];
  runningDigests: string[];
  /**
   * This service's Release is applied, its Rollout is not itself OutOfSync (`status.resources`
   * keeps each resource's sync status, also on Argo CD 3), and it runs only the released digest
   * with its Rollout done: an OutOfSync Application, a sync or a pending refresh is then about
   * another service's change.
   */
  ownReleaseLive: boolean;
  /** Said where `ownReleaseLive` relaxes a check. */
  anotherServicesChange: string;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

export function readServiceFacts(
  service: string,
  input: ServiceHealthInput,
  app: Application,
  appLabel: string,
): ServiceFacts {
  const status = app.status ?? {};
  const syncStatus = status.sync?.status;
  const syncOperation = syncOperationState(status.operationState?.phase);
  const comparison = gitComparison(syncStatus);
  const settling = comparison !== 'synced' || syncOperation === 'running';
  const released = input.releasedDigest?.toLowerCase();
  const applied = judgeReleaseApplied(service, {
    releasedDigest: input.releasedDigest,
    application: app,
    platformRepo: input.platformRepo,
    platformRevisionCarriesRelease: input.platformRevisionCarriesRelease ?? {},
    product: input.product,
    imageNaming: input.imageNaming,
  });
  const rollout = readRollout(service, input, app, appLabel, settling);
  const rolloutDone =
    rollout.check.verdict === 'healthy' &&
    (rollout.canary === undefined || rollout.canary.complete);
  const images = imagesForService(runningImages(app), {
    ...input.product,
    service,
    releasedDigest: released,
    naming: input.imageNaming,
  });
  return {
    service,
    input,
    app,
    status,
    appLabel,
    syncStatus,
    comparison,
    syncOperation,
    settling,
    released,
    applied,
    rollout,
    rolloutDone,
    images,
    runningDigests: unique(
      images.map(imageDigest).filter((d): d is string => d !== undefined),
    ),
    ownReleaseLive:
      applied.verdict === 'healthy' &&
      findRollout(app, service)?.status !== 'OutOfSync' &&
      rolloutDone &&
      released !== undefined &&
      images.length > 0 &&
      images.every(image => imageDigest(image) === released),
    anotherServicesChange: `${possessive(service)} own Release is applied and running, so this concerns another service`,
  };
}
