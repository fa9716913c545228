import type { Application } from '@refplat/plugin-promotions-common';

export interface ApplicationEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  application: Application;
}

/** The resourceVersion a watch asked for is too old (Kubernetes 410 Gone): list again. */
export class ResourceVersionGone extends Error {}

/**
 * One ArgoCD instance's or cluster's Applications of every Product, listed and
 * then followed as they change. Only the edge: reconnecting and deciding what an
 * event means are HealthStream's.
 */
export interface ApplicationWatch {
  /** The instance or cluster, for logs. */
  readonly name: string;
  /** The configured instance or cluster name, as the metrics name its stream. */
  readonly instanceName: string;
  /**
   * Whether a watch can resume from the last event's resourceVersion after the
   * server ended it (Kubernetes). ArgoCD's stream replays nothing, so after a
   * loss it lists again.
   */
  readonly resumable: boolean;
  list(): Promise<{ applications: Application[]; resourceVersion?: string }>;
  /**
   * Follows the events after `resourceVersion`: resolves when the server ends
   * the stream, rejects when it fails (ResourceVersionGone when too old) or
   * `signal` aborts.
   */
  watch(
    resourceVersion: string | undefined,
    onEvent: (event: ApplicationEvent) => void,
    signal: AbortSignal,
  ): Promise<void>;
}
