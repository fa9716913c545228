import {
  findRollout,
  imageDigest,
  isReconciledAfterLastOperation,
  runningImages,
  syncedRevision,
} from '../argo/application';
import { CanaryState, canaryState, describeCanary } from '../argo/canaryState';
import { RolloutHealth, rolloutHealth } from '../argo/rolloutHealth';
import { healthIsInResourceTree } from '../argo/resourceTree';
import { ImageNaming, imagesForService } from '../argo/serviceImages';
import { argoTimeIso } from '../argo/time';
import type { GitRepoRef } from '../argo/repoUrl';
import type { Application, ApplicationResourceStatus, Rollout } from '../argo/types';
import { shortDigestText, shortRevision } from './format';
import { judgeReleaseApplied } from './releaseApplied';
import { HealthVerdict, worstVerdict } from './verdict';

export { HEALTH_VERDICT_SEVERITY, worstVerdict } from './verdict';
export type { HealthVerdict } from './verdict';

/** @public */
export type ServiceHealthCheckId =
  | 'application'
  | 'sync'
  | 'revision'
  | 'reconciled'
  | 'app-health'
  | 'rollout'
  | 'image';

/** @public */
export interface ServiceHealthCheck {
  id: ServiceHealthCheckId;
  /** true: holds; false: does not hold; undefined: could not be told (or not checked). */
  ok: boolean | undefined;
  detail: string;
  /** What this check alone says (`healthy` when ok). */
  verdict: HealthVerdict;
}

/** @public */
export interface ServiceHealthInput {
  /** The digest the stage's Release record names for the service (undefined = not released). */
  releasedDigest?: string;
  /** The stage's Argo CD Application (undefined = not found). */
  application?: Application;
  /** Set when Argo CD / the cluster could not be asked (unreachable, auth, 5xx). */
  applicationLookupError?: string;
  /** The platform repo (`promotions.platformRepo`): tells platform-repo sources from app-repo ones. */
  platformRepo: GitRepoRef;
  /**
   * Computed by the caller for the Application's platform-repo revisions only
   * (`platformRepoRevisions`): does the revision's Release name this service's current digest
   * (commits that changed only other services do not concern it)? Missing or undefined: could not
   * be read.
   */
  platformRevisionCarriesRelease?: Readonly<Record<string, boolean | undefined>>;
  /** The live Rollout, when the caller fetched it; else `status.resources` health is used. */
  rollout?: Rollout;
  /** The Application name, for messages when the Application is missing (`alpha-shop-test`). */
  applicationName?: string;
  /**
   * The Product, which names its Services' images (`promotions.images`). An image carrying the
   * released digest is the Service's whatever its name; names tell what runs instead.
   */
  product?: { team: string; product: string };
  imageNaming?: ImageNaming;
  now: Date;
}

/** @public */
export interface ServiceHealth {
  verdict: HealthVerdict;
  /** `verdict === 'healthy'`. */
  healthy: boolean;
  /** Every check that does not hold, in words a developer understands. */
  reasons: string[];
  /** All seven checks, in a fixed order. */
  checks: ServiceHealthCheck[];
  /** Digests of this service's images in `status.summary.images`. */
  runningDigests: string[];
  /** When a live Rollout was given. */
  canary?: CanaryState;
  /** The Rollout's Argo CD health, from the live Rollout or from `status.resources`. */
  rolloutHealth?: RolloutHealth;
}

/** @public */
export interface StageHealth {
  verdict: HealthVerdict;
  healthy: boolean;
  /** `service: reason`; a reason shared by several services is given once (`a, b: reason`). */
  reasons: string[];
  /** Each service's verdict. */
  services: Record<string, HealthVerdict>;
}

const ROLLOUT_HEALTH_STATUSES: readonly string[] = [
  'Healthy',
  'Progressing',
  'Suspended',
  'Degraded',
  'Unknown',
];

const CHECK_ORDER: ServiceHealthCheckId[] = [
  'application',
  'sync',
  'revision',
  'reconciled',
  'app-health',
  'rollout',
  'image',
];

/** A check passes when healthy, fails when not, and is undecided when unknown. */
function checkOk(verdict: HealthVerdict): boolean | undefined {
  if (verdict === 'healthy') return true;
  if (verdict === 'unknown') return undefined;
  return false;
}

function check(
  id: ServiceHealthCheckId,
  verdict: HealthVerdict,
  detail: string,
): ServiceHealthCheck {
  return {
    id,
    ok: checkOk(verdict),
    detail,
    verdict,
  };
}

function withMessage(text: string, message: string | undefined): string {
  return message ? `${text}: ${message}` : text;
}

/**
 * THE reality rule: is `service` really running what the stage's Release record names?
 *
 * Healthy only when ALL hold: the Application was read; it is `Synced`; ArgoCD has applied the
 * current Release for this service, as the Application's shape tells (`judgeReleaseApplied`);
 * Argo CD reconciled after the last sync finished; the service's Rollout is `Healthy` (a paused
 * canary is Suspended, i.e. still in progress); and the running images include the released
 * digest (and, once the canary is complete, only it).
 *
 * Each service tells its own truth: the Application's aggregate health does not count where another
 * service's Rollout explains it and this service's Rollout health is known, and an OutOfSync Application, a running sync or a pending
 * refresh does not hold back a service whose own Release is applied and running alone with its
 * Rollout done (another service's new digest is what moved).
 *
 * @public
 */
export function evaluateServiceHealth(
  service: string,
  input: ServiceHealthInput,
): ServiceHealth {
  const app = input.application;
  const appName = input.applicationName ?? app?.metadata?.name;
  const appLabel = appName ? `Application ${appName}` : 'The Application';

  // 1. Could the Application be read at all? If not, nothing else can be said.
  if (input.applicationLookupError !== undefined || !app) {
    const unreadable: ServiceHealthCheck =
      input.applicationLookupError !== undefined
        ? check(
            'application',
            'unknown',
            `ArgoCD unreachable: ${input.applicationLookupError}`,
          )
        : {
            ...check(
              'application',
              'unknown',
              appName
                ? `Application ${appName} not found: the ApplicationSet has not generated it`
                : "The stage's Application was not found: the ApplicationSet has not generated it",
            ),
            ok: false,
          };
    const checks = [
      unreadable,
      ...CHECK_ORDER.slice(1).map(id =>
        check(id, 'unknown', 'Not checked: the Application could not be read'),
      ),
    ];
    const result: ServiceHealth = {
      verdict: 'unknown',
      healthy: false,
      reasons: [unreadable.detail],
      checks,
      runningDigests: [],
    };
    if (input.rollout) {
      result.canary = canaryState(input.rollout, input.now);
      result.rolloutHealth = rolloutHealth(input.rollout);
    }
    return result;
  }

  const status = app.status ?? {};
  const applicationCheck = check('application', 'healthy', `${appLabel} found`);
  const syncStatus = status.sync?.status;
  const operation = status.operationState;
  const operationPhase = operation?.phase;
  const revision = syncedRevision(app);
  const operationRunning =
    operationPhase === 'Running' || operationPhase === 'Terminating';
  const synced = syncStatus === 'Synced';
  const settling = !synced || operationRunning;
  const released = input.releasedDigest?.toLowerCase();

  // Has ArgoCD applied the current Release for this service? Decided by the Application's shape.
  const applied = judgeReleaseApplied(service, {
    releasedDigest: input.releasedDigest,
    application: app,
    platformRepo: input.platformRepo,
    platformRevisionCarriesRelease: input.platformRevisionCarriesRelease ?? {},
    product: input.product,
    imageNaming: input.imageNaming,
  });
  const revisionCheck = check('revision', applied.verdict, applied.detail);

  // The service's own Rollout: from the live Rollout, else its entry in `status.resources`.
  let canary: CanaryState | undefined;
  let rHealth: RolloutHealth | undefined;
  let rolloutCheck: ServiceHealthCheck;
  if (input.rollout) {
    canary = canaryState(input.rollout, input.now);
    rHealth = rolloutHealth(input.rollout);
    rolloutCheck = rolloutCheckFrom(service, rHealth, canary);
  } else {
    const entry = findRollout(app, service);
    const entryHealth = entry?.health?.status;
    if (!entry) {
      rolloutCheck = check(
        'rollout',
        settling ? 'progressing' : 'unhealthy',
        `No Rollout named ${service} in ${appLabel}`,
      );
    } else if (entryHealth === 'Missing') {
      rolloutCheck = check(
        'rollout',
        settling ? 'progressing' : 'unhealthy',
        `Rollout ${service} is Missing: it is in git but not in the cluster`,
      );
    } else if (entryHealth) {
      rHealth = {
        status: ROLLOUT_HEALTH_STATUSES.includes(entryHealth)
          ? (entryHealth as RolloutHealth['status'])
          : 'Unknown',
      };
      if (entry.health?.message) rHealth.message = entry.health.message;
      rolloutCheck = rolloutCheckFrom(service, rHealth, undefined);
    } else {
      rolloutCheck = check(
        'rollout',
        'unknown',
        status.resourceHealthSource === 'appTree'
          ? `The health of Rollout ${service} is only in the resource tree (resourceHealthSource: appTree)`
          : `ArgoCD reports no health for Rollout ${service}`,
      );
    }
  }
  const rolloutDone =
    rolloutCheck.verdict === 'healthy' &&
    (canary === undefined || canary.complete);

  const images = imagesForService(runningImages(app), {
    ...input.product,
    service,
    releasedDigest: released,
    naming: input.imageNaming,
  });
  const runningDigests = unique(
    images.map(imageDigest).filter((d): d is string => d !== undefined),
  );
  // This service's Release is applied, its Rollout is not itself OutOfSync (`status.resources`
  // keeps each resource's sync status, also on Argo CD 3), and it runs only the released digest
  // with its Rollout done: an OutOfSync Application, a sync or a pending refresh is then about
  // another service's change.
  const ownReleaseLive =
    applied.verdict === 'healthy' &&
    findRollout(app, service)?.status !== 'OutOfSync' &&
    rolloutDone &&
    released !== undefined &&
    images.length > 0 &&
    images.every(image => imageDigest(image) === released);
  const otherServices = `${service}'s own Release is applied and running, so this concerns another service`;

  // Sync status and the last sync operation.
  let syncCheck: ServiceHealthCheck;
  if (operationRunning) {
    const since = argoTimeIso(operation?.startedAt);
    const running = withMessage(
      `ArgoCD sync operation is ${operationPhase}${since ? ` (started ${since})` : ''}`,
      operation?.message,
    );
    syncCheck = ownReleaseLive
      ? check('sync', 'healthy', `${running}; ${otherServices}`)
      : check('sync', 'progressing', running);
  } else if (operationPhase === 'Failed' || operationPhase === 'Error') {
    syncCheck = check(
      'sync',
      'unhealthy',
      withMessage(
        `ArgoCD's last sync ${operationPhase === 'Failed' ? 'failed' : 'errored'} (sync status ${syncStatus ?? 'unknown'})`,
        operation?.message,
      ),
    );
  } else if (synced) {
    syncCheck = check('sync', 'healthy', `Synced to ${shortRevision(revision)}`);
  } else if (syncStatus === 'OutOfSync') {
    // Relaxed only when another service's Rollout is the resource that is OutOfSync.
    const outOfSyncRollout = otherRollout(app, service, r => r.status === 'OutOfSync');
    syncCheck = ownReleaseLive && outOfSyncRollout
      ? check(
          'sync',
          'healthy',
          `${appLabel} is OutOfSync on Rollout ${outOfSyncRollout}; ${otherServices}`,
        )
      : check('sync', 'progressing', 'ArgoCD has not synced the new Release yet (OutOfSync)');
  } else {
    const condition = Array.isArray(status.conditions)
      ? status.conditions.find(c => c?.message)
      : undefined;
    syncCheck = check(
      'sync',
      'unknown',
      withMessage(
        syncStatus
          ? `ArgoCD could not compare the Application with git (sync status ${syncStatus})`
          : 'ArgoCD reports no sync status',
        condition?.message,
      ),
    );
  }

  // Has Argo CD looked at the live state since the last sync finished?
  const reconciledAt = argoTimeIso(status.reconciledAt);
  const finishedAt = argoTimeIso(operation?.finishedAt);
  let reconciledCheck: ServiceHealthCheck;
  if (isReconciledAfterLastOperation(app)) {
    reconciledCheck = check(
      'reconciled',
      'healthy',
      reconciledAt
        ? `Reconciled at ${reconciledAt}`
        : 'No finished sync operation to compare with',
    );
  } else {
    const stale = `ArgoCD has not refreshed the live state since the last sync finished (reconciled ${reconciledAt ?? 'never'}, sync finished ${finishedAt})`;
    reconciledCheck = ownReleaseLive
      ? check('reconciled', 'healthy', `${stale}; ${otherServices}`)
      : check('reconciled', 'progressing', stale);
  }

  // The Application's health is the worst of all its resources, so one service's failing canary
  // would sink every other. Where this service's Rollout health is known and another service's
  // Rollout explains the Application's health, that health is the other service's; otherwise
  // (nothing finer known, or nothing explains it) it counts here too.
  const appHealth = status.health?.status;
  // On Argo CD 3 the resources' health comes from a second read (the resource tree): when none of
  // them explains the Application's health, the two reads caught different moments, and a service
  // running its own Release alone is judged by its own Rollout.
  const explainedBy = rHealth ? otherRolloutWithHealth(app, service, appHealth) : undefined;
  const readApart = rHealth !== undefined && ownReleaseLive && unexplainedByTree(app, appHealth);
  let appHealthCheck: ServiceHealthCheck;
  if (explainedBy) {
    appHealthCheck = check(
      'app-health',
      'healthy',
      `${appLabel} is ${appHealth} because of Rollout ${explainedBy}; ${service} is judged by its own Rollout`,
    );
  } else if (readApart) {
    appHealthCheck = check(
      'app-health',
      'healthy',
      `${appLabel} is ${appHealth}, which no resource of its resource tree (read after it) explains; ${otherServices}`,
    );
  } else {
    appHealthCheck = applicationHealthCheck(appLabel, appHealth, status.health?.message, settling);
  }
  const ownHealthy =
    appHealthCheck.verdict === 'healthy' && (rHealth === undefined || rHealth.status === 'Healthy');

  // The running images against the released digest.
  const settled =
    syncCheck.verdict === 'healthy' &&
    ownHealthy &&
    applied.verdict !== 'progressing' &&
    rolloutCheck.verdict !== 'progressing';
  let imageCheck: ServiceHealthCheck;
  if (!released) {
    imageCheck = check(
      'image',
      'unknown',
      `${service} is not released to this stage: the Release record names no digest for it`,
    );
  } else if (images.length === 0) {
    const all = runningImages(app);
    imageCheck = check(
      'image',
      settled ? 'unhealthy' : 'progressing',
      `${service} is not among the running images${all.length ? ` (${all.join(', ')})` : ' (none reported)'}`,
    );
  } else if (!runningDigests.includes(released)) {
    const running = runningDigests.length
      ? runningDigests.map(shortDigestText).join(', ')
      : `${images.join(', ')} (no digest)`;
    imageCheck = check(
      'image',
      settled ? 'unhealthy' : 'progressing',
      `Running ${running} but the Release names ${shortDigestText(released)}`,
    );
  } else {
    const others = [
      ...runningDigests.filter(d => d !== released).map(shortDigestText),
      ...images.filter(i => imageDigest(i) === undefined),
    ];
    if (others.length === 0) {
      imageCheck = check('image', 'healthy', `Running the released ${shortDigestText(released)}`);
    } else if (rolloutDone) {
      imageCheck = check(
        'image',
        'progressing',
        `The rollout is complete but ${others.join(', ')} still runs beside the released ${shortDigestText(released)}`,
      );
    } else {
      imageCheck = check(
        'image',
        'healthy',
        `Running the released ${shortDigestText(released)} beside ${others.join(', ')} while the rollout is in progress`,
      );
    }
  }

  const checks = [
    applicationCheck,
    syncCheck,
    revisionCheck,
    reconciledCheck,
    appHealthCheck,
    rolloutCheck,
    imageCheck,
  ];
  const verdict = worstVerdict(checks.map(c => c.verdict));
  const result: ServiceHealth = {
    verdict,
    healthy: verdict === 'healthy',
    reasons: checks.filter(c => c.verdict !== 'healthy').map(c => c.detail),
    checks,
    runningDigests,
  };
  if (canary) result.canary = canary;
  if (rHealth) result.rolloutHealth = rHealth;
  return result;
}

/** The Application's `status.resources`, or none when it has no list. */
function resourcesOf(app: Application): ApplicationResourceStatus[] {
  return Array.isArray(app.status?.resources) ? app.status!.resources : [];
}

/** The name of another service's Rollout in `status.resources` that `matches`, if any. */
function otherRollout(
  app: Application,
  service: string,
  matches: (resource: ApplicationResourceStatus) => boolean,
): string | undefined {
  const resources = resourcesOf(app);
  return resources.find(r => r?.kind === 'Rollout' && r.name !== service && matches(r))?.name;
}

/** Another service's Rollout whose health is the Application's (not Healthy) health, if any. */
function otherRolloutWithHealth(
  app: Application,
  service: string,
  appHealth: string | undefined,
): string | undefined {
  if (!appHealth || appHealth === 'Healthy') return undefined;
  return otherRollout(app, service, r => r.health?.status === appHealth);
}

/** The health a canary passes through, which may move between two reads. */
const TRANSITIONAL_HEALTH: readonly string[] = ['Progressing', 'Suspended'];

/**
 * On Argo CD 3 (`appTree`), is the Application's Progressing or Suspended health one that none of
 * its resources has, each resource's health being known? Argo CD's aggregate is the worst of its
 * resources', so the tree was read at another moment than the Application. A Degraded or Missing
 * aggregate counts even so: a wrong "healthy" costs more than a wrong "progressing".
 */
function unexplainedByTree(app: Application, appHealth: string | undefined): boolean {
  if (!healthIsInResourceTree(app) || !appHealth || !TRANSITIONAL_HEALTH.includes(appHealth)) {
    return false;
  }
  const resources = resourcesOf(app);
  return (
    resources.length > 0 &&
    resources.every(r => r?.health?.status !== undefined) &&
    !resources.some(r => r.health?.status === appHealth)
  );
}

/** The Application's aggregate health check. */
function applicationHealthCheck(
  appLabel: string,
  appHealth: string | undefined,
  message: string | undefined,
  settling: boolean,
): ServiceHealthCheck {
  switch (appHealth) {
    case 'Healthy':
      return check('app-health', 'healthy', `${appLabel} is Healthy`);
    case 'Progressing':
    case 'Suspended':
      return check('app-health', 'progressing', withMessage(`${appLabel} is ${appHealth}`, message));
    case 'Degraded':
      return check('app-health', 'unhealthy', withMessage(`${appLabel} is Degraded`, message));
    case 'Missing':
      return check(
        'app-health',
        settling ? 'progressing' : 'unhealthy',
        withMessage(`${appLabel} is Missing: resources in git are not in the cluster`, message),
      );
    default:
      return check(
        'app-health',
        'unknown',
        withMessage(
          appHealth ? `${appLabel} health is ${appHealth}` : `ArgoCD reports no health for ${appLabel}`,
          message,
        ),
      );
  }
}

function rolloutCheckFrom(
  service: string,
  health: RolloutHealth,
  canary: CanaryState | undefined,
): ServiceHealthCheck {
  const describe = (fallback: string) =>
    canary && canary.totalSteps > 0
      ? describeCanary(canary)
      : withMessage(fallback, health.message);
  if (canary?.aborted) {
    return check(
      'rollout',
      'unhealthy',
      withMessage(
        `Rollout ${service} was aborted`,
        health.message ?? canary.message,
      ),
    );
  }
  switch (health.status) {
    case 'Healthy':
      return check(
        'rollout',
        'healthy',
        canary && canary.totalSteps > 0
          ? describeCanary(canary)
          : `Rollout ${service} is Healthy`,
      );
    case 'Progressing':
      return check(
        'rollout',
        'progressing',
        describe(`Rollout ${service} is Progressing`),
      );
    case 'Suspended':
      return check(
        'rollout',
        'progressing',
        describe(`Rollout ${service} is paused`),
      );
    case 'Degraded':
      return check(
        'rollout',
        'unhealthy',
        withMessage(`Rollout ${service} is Degraded`, health.message),
      );
    default:
      return check(
        'rollout',
        'unknown',
        withMessage(`Rollout ${service} health is Unknown`, health.message),
      );
  }
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/**
 * A stage's health from its services': the worst verdict, and every reason prefixed with the
 * service name (a reason shared by several services, such as "ArgoCD unreachable", once).
 * No services at all is `unknown`.
 *
 * @public
 */
export function evaluateStageHealth(
  services: Record<string, ServiceHealth>,
): StageHealth {
  const names = Object.keys(services);
  if (names.length === 0) {
    return {
      verdict: 'unknown',
      healthy: false,
      reasons: ['No services to evaluate'],
      services: {},
    };
  }
  const byReason = new Map<string, string[]>();
  const verdicts: Record<string, HealthVerdict> = {};
  for (const name of names) {
    const health = services[name];
    verdicts[name] = health.verdict;
    for (const reason of health.reasons) {
      const list = byReason.get(reason) ?? [];
      if (!list.includes(name)) list.push(name);
      byReason.set(reason, list);
    }
  }
  const verdict = worstVerdict(Object.values(verdicts));
  return {
    verdict,
    healthy: verdict === 'healthy',
    reasons: [...byReason].map(
      ([reason, list]) => `${list.join(', ')}: ${reason}`,
    ),
    services: verdicts,
  };
}
