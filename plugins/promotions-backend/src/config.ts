import { Config, ConfigReader, readDurationFromConfig } from '@backstage/config';
import { HumanDuration, JsonObject, durationToMilliseconds } from '@backstage/types';
import { InputError } from '@backstage/errors';
import {
  FleetConfig,
  FreezeWindow,
  GITHUB_WRITE_BUDGET,
  ImageNaming,
  IncidentPolicy,
  SEEDS_IMAGE_REPOSITORY,
  PRODUCT_APPROVERS_MODES,
  ProductApproversMode,
  freezeWindowProblem,
  isValidName,
  parseProductRef,
  WriteBudgetLimits,
} from '@refplat/plugin-promotions-common';
import { HealthConfigOrigin, chooseHealthInstances } from './health/borrowedHealthConfig';
import type { ArgoCdInstanceConfig, KubernetesClusterConfig } from './health/healthInstances';
import { ProvenanceConfig, readProvenanceConfig } from './provenance/provenanceConfig';

export const DEFAULT_STAGES = ['dev', 'test', 'uat', 'staging', 'prod'];

export interface PromotionsConfig {
  platformRepo: {
    host: string;
    owner: string;
    repo: string;
    branch: string;
    /** The least time between two writes to GitHub, and between two that notify people (PRs, comments, merges). */
    writeSpacingMs: number;
    pullRequestSpacingMs: number;
    /** The wait before octokit's first retry of a 5xx (`retryBackoff`); its next ones wait 4 and 9 times this. */
    retryBackoffMs: number;
    /** GitHub's secondary limit on writes, which the writes wait for (`writeBudget`; GitHub's 80 a minute, 500 an hour). */
    writeBudget: WriteBudgetLimits;
    /** Which Release PRs get labels (`pullRequestLabels`): a person's requests unless told otherwise. */
    pullRequestLabels: PullRequestLabelling;
  };
  releasesPath: string;
  environmentsPath: string;
  /** How the platform names a Service's image (`promotions.images`), with the seeds' default. */
  images: ImageNaming;
  /** The label keys that tell an Application's Product (`promotions.applications.labels`). */
  applicationLabels: { team: string; product: string };
  stages: string[];
  /** stage → seconds a digest must have been healthy there before it may leave. */
  soakSeconds: Record<string, number>;
  approval: {
    stages: string[];
    approvers: string[];
    requireDistinctApprover: boolean;
    /** stage → distinct approvers a promotion into it needs (1 when not given). */
    quorum: Record<string, number>;
    /** Whether a System's `refplat.org/approvers` add to `approvers` or replace them for its Product. */
    productApprovers: ProductApproversMode;
  };
  /** The health source's ArgoCD instances; empty when Kubernetes is the source. */
  argocd: ArgoCdInstanceConfig[];
  /** The health source's clusters; empty when ArgoCD is the source. */
  kubernetes: KubernetesClusterConfig[];
  /** Which config the instances came from, for the start-up log. */
  healthConfig: { origin: HealthConfigOrigin; reason: string; warnings: string[] };
  gate: {
    enabled: boolean;
    frequency: HumanDuration;
    /** How long a request opening a PR is trusted to finish (see judgeOpening). */
    openingLeaseSeconds: number;
    /** How long an unused `promotions/*` branch is left alone. */
    orphanGraceSeconds: number;
  };
  /** When "in progress" becomes "stuck", in seconds (see diagnose()). */
  diagnosis: {
    syncStuckSeconds: number;
    canaryStuckSeconds: number;
    approvalWaitSeconds: number;
    degradedStuckSeconds: number;
  };
  autoPromote: { enabled: boolean; frequency: HumanDuration; fleet: FleetConfig };
  /** Freeze windows (the built-in freeze guard runs when there is one). */
  freezes: FreezeWindow[];
  /** The incident gate (the built-in incident guard runs when it is configured). */
  incidents?: IncidentPolicy;
  /**
   * Delivery metrics: how often new platform-branch commits are read into
   * the digest timelines, how far back a first run reads, and how soon a
   * later prod change makes a change a failure.
   */
  metrics: {
    enabled: boolean;
    frequency: HumanDuration;
    backfillCommits: number;
    failureWindowSeconds: number;
  };
  /**
   * Stuck notifications: how often one replica sweeps every ladder for stalls
   * (health events and the Gate notify between sweeps when enabled).
   */
  stuckNotifications: { enabled: boolean; frequency: HumanDuration };
  /**
   * GitHub webhooks reach the plugin through the events backend: pushes, merges,
   * closes and statuses act at once, and polling is only the fallback.
   */
  webhooks: { enabled: boolean };
  /**
   * One stream of Application events per ArgoCD instance or cluster (ArgoCD's
   * application stream or a Kubernetes watch): health changes reach open ladders at once.
   */
  healthStream: { enabled: boolean };
  /** Provenance on the ladder and in the guards: off until configured. */
  provenance: ProvenanceConfig;
}

const IMAGE_PLACEHOLDERS = ['registry', 'team', 'product', 'service'];

/**
 * `promotions.images`: a repository template that names each Service apart (it must hold
 * `{service}`) and only the placeholders there are.
 */
function readImageNaming(config: Config): PromotionsConfig['images'] {
  const repository = config.getOptionalString('images.repository') ?? SEEDS_IMAGE_REPOSITORY;
  const registry = config.getOptionalString('images.registry');
  const unknown = [...repository.matchAll(/\{([^}]*)\}/g)]
    .map(match => match[1])
    .find(name => !IMAGE_PLACEHOLDERS.includes(name));
  if (unknown !== undefined || !repository.includes('{service}')) {
    throw new InputError(
      `promotions.images.repository must name each Service's image with {service} and may use only {${IMAGE_PLACEHOLDERS.join('}, {')}}; got '${repository}'`,
    );
  }
  return registry ? { repository, registry } : { repository };
}

function trimSlashes(path: string): string {
  return path.replace(/^\/+|\/+$/g, '');
}

function readArgoCd(config: Config | undefined): ArgoCdInstanceConfig[] {
  if (!config) return [];
  const instances = config.getOptionalConfigArray('instances') ?? [];
  const list = instances.map(instance => ({
    name: instance.getString('name'),
    baseUrl: instance.getString('baseUrl').replace(/\/+$/, ''),
    token: instance.getString('token'),
    uiUrl: (
      instance.getOptionalString('uiUrl') ?? instance.getString('baseUrl')
    ).replace(/\/+$/, ''),
  }));
  const baseUrl = config.getOptionalString('baseUrl');
  if (baseUrl) {
    list.unshift({
      name: 'argocd',
      baseUrl: baseUrl.replace(/\/+$/, ''),
      token: config.getString('token'),
      uiUrl: (config.getOptionalString('uiUrl') ?? baseUrl).replace(/\/+$/, ''),
    });
  }
  return list;
}

function readKubernetes(
  config: Config | undefined,
  applicationNamespace: string,
): KubernetesClusterConfig[] {
  return (config?.getOptionalConfigArray('clusters') ?? []).map(cluster => ({
    name: cluster.getString('name'),
    url: cluster.getString('url').replace(/\/+$/, ''),
    serviceAccountToken: cluster.getOptionalString('serviceAccountToken'),
    caData: cluster.getOptionalString('caData'),
    skipTLSVerify: cluster.getOptionalBoolean('skipTLSVerify') ?? false,
    applicationNamespace:
      cluster.getOptionalString('applicationNamespace') ?? applicationNamespace,
  }));
}

/**
 * The plugin's own `promotions.argocd` / `promotions.kubernetes`, or else the
 * instances the ArgoCD or Kubernetes plugin already has (see
 * chooseHealthInstances). Their top-level keys are read, never declared:
 * those plugins own their schema.
 */
function readHealthInstances(root: Config, config: Config) {
  const applicationNamespace =
    config.getOptionalString('kubernetes.applicationNamespace') ?? 'argocd';
  const { origin, reason, warnings, argocd, kubernetes } = chooseHealthInstances({
    argocd: readArgoCd(config.getOptionalConfig('argocd')),
    kubernetes: readKubernetes(config.getOptionalConfig('kubernetes'), applicationNamespace),
    argocdPlugin: root.getOptionalConfig('argocd'),
    kubernetesPlugin: root.getOptionalConfig('kubernetes'),
    applicationNamespace,
  });
  return { argocd, kubernetes, healthConfig: { origin, reason, warnings } };
}

/** The Gate's poll without webhooks, and with them (a fallback for missed deliveries). */
export const GATE_POLL = { seconds: 30 };
export const GATE_POLL_WITH_WEBHOOKS = { minutes: 5 };

/**
 * `promotions.webhooks.enabled`, by default on when the events backend's GitHub module
 * has a webhook secret (`events.modules.github.webhookSecret`), as it then verifies deliveries.
 */
function readWebhooks(root: Config, config: Config) {
  return {
    enabled:
      config.getOptionalBoolean('webhooks.enabled') ??
      root.has('events.modules.github.webhookSecret'),
  };
}

/** Fleet mode: off unless configured; at most 50 Products per PR, any team. */
function readFleet(config: Config | undefined): FleetConfig {
  const maxProducts = config?.getOptionalNumber('maxProducts') ?? 50;
  if (!Number.isInteger(maxProducts) || maxProducts < 1) {
    throw new InputError('promotions.autoPromote.fleet.maxProducts must be a positive whole number');
  }
  const groupBy = config?.getOptionalString('groupBy') ?? 'none';
  if (groupBy !== 'none' && groupBy !== 'team') {
    throw new InputError(`promotions.autoPromote.fleet.groupBy must be none or team, not ${groupBy}`);
  }
  return { enabled: config?.getOptionalBoolean('enabled') ?? false, maxProducts, groupBy };
}

function readSchedule(
  config: Config | undefined,
  defaults: { enabled: boolean; frequency: HumanDuration },
) {
  return {
    enabled: config?.getOptionalBoolean('enabled') ?? defaults.enabled,
    frequency: config?.has('frequency')
      ? readDurationFromConfig(config, { key: 'frequency' })
      : defaults.frequency,
  };
}

/**
 * `promotions.stages` lists names, or `{name, soakTime}` objects for stages
 * with a soak time; both forms may be mixed.
 */
function readStages(config: Config) {
  const raw = config.getOptional<unknown[]>('stages');
  if (raw === undefined) return { stages: DEFAULT_STAGES, soakSeconds: {} };
  if (!Array.isArray(raw)) throw new InputError('promotions.stages must be a list');
  const stages: string[] = [];
  const soakSeconds: Record<string, number> = {};
  for (const entry of raw) {
    if (typeof entry === 'string') {
      stages.push(entry);
      continue;
    }
    const item = new ConfigReader(entry as JsonObject, 'promotions.stages[]');
    const name = item.getString('name');
    stages.push(name);
    if (item.has('soakTime')) {
      soakSeconds[name] = durationToMilliseconds(readDurationFromConfig(item, { key: 'soakTime' })) / 1000;
    }
  }
  return { stages, soakSeconds };
}

function readSeconds(config: Config, key: string, fallback: number): number {
  return readMilliseconds(config, key, fallback * 1000) / 1000;
}

/** A duration key in milliseconds, `fallback` when the key is absent. */
export function readMilliseconds(config: Config, key: string, fallback: number): number {
  return config.has(key) ? durationToMilliseconds(readDurationFromConfig(config, { key })) : fallback;
}

/**
 * Why the plugin cannot serve with this configuration, or undefined when it
 * can. Without a platform repo there is nothing to read, and a value that is
 * missing or wrong (an unset `${ARGOCD_AUTH_TOKEN}`) cannot be served either;
 * the plugin then starts idle instead of taking the whole backend down with it.
 */
export function notConfiguredReason(root: Config): string | undefined {
  if (!root.has('promotions.platformRepo')) {
    return (
      'promotions is not configured: set promotions.platformRepo (owner and repo of the ' +
      'platform GitHub repository) and a health source (promotions.argocd or ' +
      'promotions.kubernetes, or the ArgoCD or Kubernetes plugin\'s config), see the README ' +
      'of @refplat/plugin-promotions-backend'
    );
  }
  try {
    readPromotionsConfig(root);
    return undefined;
  } catch (error) {
    return `promotions is misconfigured: ${(error as Error).message}`;
  }
}

/** `promotions.approval.quorum`: per approval stage, a whole number of approvers, at least 1. */
function readQuorum(config: Config, approvalStages: string[]): Record<string, number> {
  const quorum = config.getOptionalConfig('approval.quorum');
  return Object.fromEntries(
    (quorum?.keys() ?? []).map(stage => {
      const needed = quorum!.getNumber(stage);
      if (!approvalStages.includes(stage) || !Number.isInteger(needed) || needed < 1) {
        throw new InputError(
          `promotions.approval.quorum.${stage} must be a whole number of approvers (at least 1) for a stage in promotions.approval.stages`,
        );
      }
      return [stage, needed];
    }),
  );
}

/** `promotions.<key>`, one of `values`; `fallback` when not given. */
function readOneOf<T extends string>(config: Config, key: string, values: readonly T[], fallback: T): T {
  const value = config.getOptionalString(key) ?? fallback;
  if (!values.includes(value as T)) {
    throw new InputError(`promotions.${key} must be one of ${values.join(', ')}, got '${value}'`);
  }
  return value as T;
}

/** `promotions.approval.productApprovers`: 'add' (default) or 'replace'. */
function readProductApproversMode(config: Config): ProductApproversMode {
  return readOneOf(config, 'approval.productApprovers', PRODUCT_APPROVERS_MODES, 'add');
}

/** `promotions.freezes`, each checked: a window that could never be evaluated fails start-up. */
function readFreezes(config: Config, stages: string[]): FreezeWindow[] {
  return (config.getOptionalConfigArray('freezes') ?? []).map((freeze, index) => {
    const window: FreezeWindow = {
      name: freeze.getString('name'),
      stages: freeze.getStringArray('stages'),
      schedule: freeze.getString('schedule'),
      timezone: freeze.getOptionalString('timezone') ?? 'UTC',
      reason: freeze.getString('reason'),
      ...(freeze.has('products') ? { products: freeze.getStringArray('products') } : {}),
    };
    const unknownStage = window.stages.find(stage => !stages.includes(stage));
    const badProduct = window.products?.find(product => !parseProductRef(product));
    const problem =
      freezeWindowProblem(window) ??
      (unknownStage ? `freeze ${window.name} names '${unknownStage}', which is not in promotions.stages` : undefined) ??
      (badProduct === undefined ? undefined : `freeze ${window.name} names the Product '${badProduct}', which is not team/product`);
    if (problem) throw new InputError(`promotions.freezes[${index}]: ${problem}`);
    return window;
  });
}

const INCIDENT_MODES: IncidentPolicy['mode'][] = ['block', 'approval'];

/** `promotions.incidents`, checked: stages that exist, a known mode, commander groups in approval mode. */
function readIncidents(config: Config, stages: string[]): IncidentPolicy | undefined {
  const incidents = config.getOptionalConfig('incidents');
  if (!incidents) return undefined;
  const policy: IncidentPolicy = {
    stages: incidents.getOptionalStringArray('stages') ?? ['prod'],
    mode: (incidents.getOptionalString('mode') ?? 'block') as IncidentPolicy['mode'],
    commanders: incidents.getOptionalStringArray('commanders') ?? ['group:default/incident-commanders'],
  };
  const unknownStage = policy.stages.find(stage => !stages.includes(stage));
  if (unknownStage) {
    throw new InputError(`promotions.incidents.stages names '${unknownStage}', which is not in promotions.stages`);
  }
  if (!INCIDENT_MODES.includes(policy.mode)) {
    throw new InputError(`promotions.incidents.mode must be ${INCIDENT_MODES.map(m => `'${m}'`).join(' or ')}, got ${JSON.stringify(policy.mode)}`);
  }
  if (policy.mode === 'approval' && policy.commanders.length === 0) {
    throw new InputError('promotions.incidents.commanders must name at least one group in approval mode');
  }
  return policy;
}

/**
 * `promotions.platformRepo.writePacing`: GitHub asks for writes one at a time
 * and at least a second apart, and content that notifies people (a PR, a
 * comment, a merge) further apart still; octokit's throttling paces them so
 * (1 s, 3 s) unless told otherwise, e.g. for a GitHub Enterprise Server
 * whose limits its admins set.
 */
function readWritePacing(repo: Config): { writeSpacingMs: number; pullRequestSpacingMs: number } {
  return {
    writeSpacingMs: readMilliseconds(repo, 'writePacing.writes', 1_000),
    pullRequestSpacingMs: readMilliseconds(repo, 'writePacing.pullRequests', 3_000),
  };
}

/**
 * `promotions.platformRepo.writeBudget`: how many writes GitHub's secondary
 * limit allows one identity, a minute and an hour; GitHub's own figures
 * unless told otherwise (a GitHub Enterprise Server's admins set theirs).
 */
function readWriteBudget(repo: Config): WriteBudgetLimits {
  const limit = (key: 'perMinute' | 'perHour') => {
    const value = repo.getOptionalNumber(`writeBudget.${key}`) ?? GITHUB_WRITE_BUDGET[key];
    if (!Number.isInteger(value) || value < 1) {
      throw new InputError(`promotions.platformRepo.writeBudget.${key} must be a whole number of at least 1, got ${value}`);
    }
    return value;
  };
  return { perMinute: limit('perMinute'), perHour: limit('perHour') };
}

export type PullRequestLabelling = 'all' | 'requested' | 'none';
const PULL_REQUEST_LABELLINGS: PullRequestLabelling[] = ['all', 'requested', 'none'];

/** Reads and checks `promotions.*`; a bad value fails at start-up, not on first use. */
export function readPromotionsConfig(root: Config): PromotionsConfig {
  const config = root.getConfig('promotions');
  const repo = config.getConfig('platformRepo');
  const { stages, soakSeconds } = readStages(config);
  const badStage = stages.find(stage => !isValidName(stage));
  if (badStage !== undefined || new Set(stages).size !== stages.length) {
    throw new InputError(
      `promotions.stages must be distinct lowercase names, got ${JSON.stringify(stages)}`,
    );
  }
  const webhooks = readWebhooks(root, config);
  const approvalStages = config.getOptionalStringArray('approval.stages') ?? [
    'prod',
  ];
  const unknownApproval = approvalStages.find(stage => !stages.includes(stage));
  if (unknownApproval) {
    throw new InputError(
      `promotions.approval.stages names '${unknownApproval}', which is not in promotions.stages`,
    );
  }
  return {
    platformRepo: {
      host: repo.getOptionalString('host') ?? 'github.com',
      owner: repo.getString('owner'),
      repo: repo.getString('repo'),
      branch: repo.getOptionalString('branch') ?? 'main',
      ...readWritePacing(repo),
      // octokit's own base of its 5xx backoff.
      retryBackoffMs: readMilliseconds(repo, 'retryBackoff', 1_000),
      writeBudget: readWriteBudget(repo),
      pullRequestLabels: readOneOf(config, 'platformRepo.pullRequestLabels', PULL_REQUEST_LABELLINGS, 'requested'),
    },
    releasesPath: trimSlashes(
      config.getOptionalString('releasesPath') ?? 'gitops/releases',
    ),
    environmentsPath: trimSlashes(
      config.getOptionalString('environmentsPath') ?? 'gitops/environments',
    ),
    images: readImageNaming(config),
    applicationLabels: {
      team: config.getOptionalString('applications.labels.team') ?? 'refplat.org/team',
      product: config.getOptionalString('applications.labels.product') ?? 'refplat.org/product',
    },
    stages,
    soakSeconds,
    approval: {
      stages: approvalStages,
      approvers: config.getOptionalStringArray('approval.approvers') ?? [
        'group:default/release-approvers',
      ],
      requireDistinctApprover:
        config.getOptionalBoolean('approval.requireDistinctApprover') ?? true,
      quorum: readQuorum(config, approvalStages),
      productApprovers: readProductApproversMode(config),
    },
    ...readHealthInstances(root, config),
    diagnosis: {
      syncStuckSeconds: readSeconds(config, 'diagnosis.syncStuck', 300),
      canaryStuckSeconds: readSeconds(config, 'diagnosis.canaryStuck', 600),
      approvalWaitSeconds: readSeconds(config, 'diagnosis.approvalWait', 86400),
      degradedStuckSeconds: readSeconds(config, 'diagnosis.degradedStuck', 0),
    },
    gate: {
      ...readSchedule(config.getOptionalConfig('gate'), {
        enabled: true,
        // An explicit gate.frequency always wins.
        frequency: webhooks.enabled ? GATE_POLL_WITH_WEBHOOKS : GATE_POLL,
      }),
      openingLeaseSeconds: readSeconds(config, 'gate.openingLease', 30),
      orphanGraceSeconds: readSeconds(config, 'gate.orphanGracePeriod', 600),
    },
    autoPromote: {
      ...readSchedule(config.getOptionalConfig('autoPromote'), {
        enabled: false, // opt-in: promoting on its own is the adopter's decision
        frequency: { minutes: 5 },
      }),
      fleet: readFleet(config.getOptionalConfig('autoPromote.fleet')),
    },
    metrics: {
      ...readSchedule(config.getOptionalConfig('metrics'), { enabled: true, frequency: { minutes: 1 } }),
      backfillCommits: config.getOptionalNumber('metrics.backfillCommits') ?? 500,
      failureWindowSeconds: readSeconds(config, 'metrics.failureWindow', 86400),
    },
    stuckNotifications: readSchedule(config.getOptionalConfig('stuckNotifications'), {
      enabled: true,
      frequency: { minutes: 5 },
    }),
    webhooks,
    freezes: readFreezes(config, stages),
    incidents: readIncidents(config, stages),
    healthStream: { enabled: config.getOptionalBoolean('healthStream.enabled') ?? true },
    provenance: readProvenanceConfig(config.getOptionalConfig('provenance'), stages),
  };
}

/** 400 unless `stage` is one of the configured stages. */
export function requireStage(config: Pick<PromotionsConfig, 'stages'>, stage: string): void {
  if (!config.stages.includes(stage)) {
    throw new InputError(`Unknown stage '${stage}'; stages are ${config.stages.join(', ')}`);
  }
}
