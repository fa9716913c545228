/**
 * The response fields the product reads (plugins/promotions-backend and
 * plugins/promotions-common). Each must exist in the real description, and
 * every recorded simulator value for it must have the real shape.
 *
 * Notation: dotted paths; `x[]` steps into each element of the array `x`;
 * a leading `[].` means each element of a top-level array. A trailing `?`
 * marks a field read with a fallback for its absence (`a ?? b`, `x?.y` where
 * undefined is handled): missing from the real description, it is a warning,
 * not a failure.
 *
 * Keep this in step with the code: when the product starts reading a field
 * of a GitHub, Argo CD or Kubernetes response, add it here (README.md,
 * "Keeping it current").
 */

export interface GithubRead {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Path templates of the description (several when GitHub has aliases). */
  templates: string[];
  status: string;
  fields: string[];
  /** Where the product reads them. */
  readBy: string;
}

const PULL_FIELDS = ['number', 'html_url', 'state', 'merged', 'merged_at', 'merged_by.login', 'head.sha', 'head.ref', 'body', 'mergeable'];

export const GITHUB_READS: GithubRead[] = [
  { method: 'get', templates: ['/repos/{owner}/{repo}/git/ref/{ref}'], status: '200', fields: ['object.sha'], readBy: 'github/PlatformRepoReader.ts' },
  { method: 'get', templates: ['/repos/{owner}/{repo}/git/trees/{tree_sha}'], status: '200', fields: ['truncated', 'tree[].type', 'tree[].path', 'tree[].sha'], readBy: 'github/PlatformRepoReader.ts' },
  { method: 'get', templates: ['/repos/{owner}/{repo}/git/blobs/{file_sha}'], status: '200', fields: ['encoding', 'content'], readBy: 'github/PlatformRepoReader.ts' },
  {
    method: 'get',
    templates: ['/repos/{owner}/{repo}/compare/{basehead}', '/repos/{owner}/{repo}/compare/{base}...{head}'],
    status: '200',
    fields: ['status', 'files[].filename', 'files[].sha', 'files[].status', 'files[].previous_filename'],
    readBy: 'github/PlatformRepoReader.ts indexFromComparison',
  },
  { method: 'get', templates: ['/repos/{owner}/{repo}/contents/{path}'], status: '200', fields: ['type', 'content', 'sha'], readBy: 'github/PlatformRepoWriter.ts readFile' },
  { method: 'put', templates: ['/repos/{owner}/{repo}/contents/{path}'], status: '200', fields: ['commit.sha'], readBy: 'github/PlatformRepoWriter.ts commitFile' },
  { method: 'post', templates: ['/repos/{owner}/{repo}/pulls'], status: '201', fields: PULL_FIELDS, readBy: 'github/PlatformRepoWriter.ts toPullRequestInfo' },
  { method: 'get', templates: ['/repos/{owner}/{repo}/pulls/{pull_number}'], status: '200', fields: PULL_FIELDS, readBy: 'github/PlatformRepoWriter.ts toPullRequestInfo' },
  // listOpenPullRequests: list items (pull-request-simple) have no merged,
  // merged_by or mergeable; toPullRequestInfo falls back to merged_at and
  // leaves the others undefined.
  {
    method: 'get',
    templates: ['/repos/{owner}/{repo}/pulls'],
    status: '200',
    fields: ['[].number', '[].html_url', '[].state', '[].merged?', '[].merged_at', '[].merged_by.login?', '[].head.sha', '[].head.ref', '[].body', '[].mergeable?'],
    readBy: 'github/PlatformRepoWriter.ts listOpenPullRequests',
  },
  { method: 'put', templates: ['/repos/{owner}/{repo}/pulls/{pull_number}/merge'], status: '200', fields: ['sha'], readBy: 'github/PlatformRepoWriter.ts mergePullRequest' },
  {
    method: 'get',
    templates: ['/repos/{owner}/{repo}/commits'],
    status: '200',
    fields: ['[].sha', '[].author.login', '[].commit.author.name', '[].commit.author.date', '[].commit.committer.date', '[].commit.message'],
    readBy: 'github/PlatformRepoWriter.ts listCommits',
  },
  {
    method: 'get',
    templates: ['/repos/{owner}/{repo}/compare/{basehead}', '/repos/{owner}/{repo}/compare/{base}...{head}'],
    status: '200',
    fields: ['total_commits', 'html_url', 'commits[].sha', 'commits[].commit.message', 'commits[].author.login', 'commits[].commit.author.name', 'commits[].html_url', 'files[].filename'],
    readBy: 'promotions/WhatChanged.ts, promotions/newestCommits.ts, github/PlatformRepoWriter.ts changedFiles',
  },
  { method: 'get', templates: ['/repos/{owner}/{repo}/git/matching-refs/{ref}'], status: '200', fields: ['[].ref', '[].object.sha'], readBy: 'github/PlatformRepoWriter.ts listBranches' },
  { method: 'get', templates: ['/repos/{owner}/{repo}/git/commits/{commit_sha}'], status: '200', fields: ['committer.date'], readBy: 'github/PlatformRepoWriter.ts commitDate' },
];

/** The parts of an Application source the product reads (common/src/argo/applicationSources.ts, injectedImages.ts). */
const SOURCE_FIELDS = ['repoURL', 'path', 'chart', 'kustomize.images', 'helm.releaseName', 'helm.parameters[].name', 'helm.parameters[].value'];

/**
 * Application fields (common/src/argo/application.ts, applicationSources.ts,
 * injectedImages.ts, resourceTree.ts; backend/src/health/*HealthSource.ts).
 * Checked against Argo CD's swagger (REST) and the Application CRD (Kubernetes).
 */
export const APPLICATION_READS = [
  'metadata.name',
  'metadata.namespace',
  'metadata.labels',
  'metadata.resourceVersion',
  'spec.destination.namespace',
  ...SOURCE_FIELDS.map(f => `spec.source.${f}`),
  ...SOURCE_FIELDS.map(f => `spec.sources[].${f}`),
  'status.sync.status',
  'status.sync.revision',
  'status.sync.revisions',
  'status.sync.comparedTo.source',
  'status.sync.comparedTo.sources',
  'status.health.status',
  'status.health.message',
  'status.reconciledAt',
  'status.operationState.phase',
  'status.operationState.message',
  'status.operationState.finishedAt',
  'status.summary.images',
  'status.resources[].kind',
  'status.resources[].name',
  'status.resources[].group',
  'status.resources[].health.status',
  'status.resourceHealthSource',
];

/** Argo CD's GetResource answer (backend/src/health/ArgoCdHealthSource.ts getRollout). */
export const RESOURCE_RESPONSE_READS = ['manifest'];

/** Argo CD's ResourceTree answer (backend/src/health/ArgoCdHealthSource.ts healthOnly; Argo CD 3 keeps resource health there). */
export const RESOURCE_TREE_READS = ['nodes[].group', 'nodes[].version', 'nodes[].kind', 'nodes[].namespace', 'nodes[].name', 'nodes[].health.status', 'nodes[].health.message'];

/**
 * Rollout fields (common/src/argo/rolloutHealth.ts, canaryState.ts), from
 * Argo CD's GetResource or a Kubernetes get or list of Rollouts; its
 * ObjectMeta reads (generation, annotations) are standard Kubernetes and not
 * part of the CRD schema. `status.canary.stableRS` was written by Argo
 * Rollouts before v0.8; it is read only when `status.stableRS` is absent.
 */
export const ROLLOUT_READS = [
  'spec.replicas',
  'spec.paused',
  'spec.strategy.canary.steps',
  'spec.strategy.blueGreen',
  'spec.workloadRef',
  'status.phase',
  'status.message',
  'status.observedGeneration',
  'status.workloadObservedGeneration',
  'status.stableRS',
  'status.canary.stableRS?',
  'status.currentPodHash',
  'status.currentStepIndex',
  'status.replicas',
  'status.updatedReplicas',
  'status.availableReplicas',
  'status.blueGreen.activeSelector',
  'status.canary.weights.canary.weight',
  'status.pauseConditions',
  'status.abort',
  'status.conditions',
];

export interface FieldRead {
  field: string;
  /** Read with a fallback for its absence. */
  tolerant: boolean;
}

export const parseFieldRead = (text: string): FieldRead => ({ field: text.replace(/\?$/, ''), tolerant: text.endsWith('?') });
