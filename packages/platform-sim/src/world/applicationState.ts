import { StageKey } from '../platform/layout';
import { SourceRevisions } from './applicationSources';
import { RolloutState } from './rolloutState';

export type SyncStatusCode = 'Synced' | 'OutOfSync' | 'Unknown';

/** What one sync applied: the source revisions and the injected digests. */
export interface SyncedState extends SourceRevisions {
  digests: Record<string, string>;
}

/** One entry of status.history: a completed sync. */
export interface SyncHistoryEntry extends SyncedState {
  id: number;
  deployStartedAt: number;
  deployedAt: number;
}

export interface SyncOperation extends SyncedState {
  startedAt: number;
  finishedAt: number;
}

/** Test controls that override what the reconcile loop computes. */
export interface AppOverrides {
  health?: string;
  sync?: SyncStatusCode;
  missing?: boolean;
  freezeCanary?: boolean;
}

/** What the Argo CD application controller knows about one Application. */
export interface ApplicationState {
  name: string;
  key: StageKey;
  /** Destination namespace: same as the Application name. */
  namespace: string;
  releasePath: string;
  createdAt: number;
  /** Revision of the platform repo's main last compared. */
  comparedRevision: string;
  /** Revision of the app repo's main last compared ('' in the platform-repo shape). */
  comparedAppRevision: string;
  syncStatus: SyncStatusCode;
  /** When the Application went OutOfSync (sync runs syncDelayMs later). */
  outOfSyncSince?: number;
  /** Digests the ApplicationSet wrote into the spec: the Release on main. */
  specDigests: Record<string, string>;
  /** Digests of the source last compared (status.sync.comparedTo). */
  targetDigests: Record<string, string>;
  /** Digests the last sync applied to the Rollouts. */
  appliedDigests: Record<string, string>;
  comparisonError?: string;
  operation?: SyncOperation;
  history: SyncHistoryEntry[];
  reconciledAt: number;
  /** service → Rollout */
  rollouts: Map<string, RolloutState>;
  overrides: AppOverrides;
  /** When status.health.status last changed. */
  healthChangedAt: number;
  lastHealth?: string;
}

export function sameDigests(
  a: Record<string, string>,
  b: Record<string, string>,
): boolean {
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every(key => a[key] === b[key])
  );
}

/** Services whose digest differs between what is applied and what the last comparison asked for. */
export function changedServices(app: ApplicationState): string[] {
  const names = new Set([
    ...Object.keys(app.targetDigests),
    ...Object.keys(app.appliedDigests),
  ]);
  return [...names].filter(
    name => app.targetDigests[name] !== app.appliedDigests[name],
  );
}
