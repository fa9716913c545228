import { LoggerService } from '@backstage/backend-plugin-api';
import {
  Application,
  ProductRef,
  applicationChangeMatters,
} from '@refplat/plugin-promotions-common';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApplicationEvent, ApplicationWatch, ResourceVersionGone } from './ApplicationWatch';
import { RECONNECT, reconnectDelayMs } from './reconnectDelay';
import { ApplicationLabels, productOfApplication } from './HealthSource';
import { recordHealthStreamConnected } from '../telemetry/promotionsMetrics';

/** Events about one Product within this window make one signal (a sync is a burst of writes). */
const PRODUCT_DEBOUNCE_MS = 500;

function keyOf(application: Application): string {
  return `${application.metadata?.namespace ?? ''}/${application.metadata?.name ?? ''}`;
}

/**
 * The backend's one follower of each health source's Application events (not
 * one per viewer): it remembers every Application as last seen, and when an
 * event changes what a ladder shows (applicationChangeMatters) it calls
 * `onProductChanged` once per Product per debounce window. A lost stream is
 * listed again and reconnected after reconnectDelayMs, the Applications that
 * changed meanwhile counting as changed.
 */
export class HealthStream {
  private readonly abort = new AbortController();
  private readonly running: Promise<void>[] = [];
  private readonly pending = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly options: {
      watches: ApplicationWatch[];
      onProductChanged: (product: ProductRef) => Promise<void>;
      logger: LoggerService;
      labels: ApplicationLabels;
    },
  ) {}

  start(): void {
    for (const watch of this.options.watches) this.running.push(this.follow(watch));
  }

  async stop(): Promise<void> {
    this.abort.abort();
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    await Promise.all(this.running);
  }

  private async follow(watch: ApplicationWatch): Promise<void> {
    const { logger } = this.options;
    const signal = this.abort.signal;
    const known = new Map<string, Application>();
    // Where to resume, and how many reconnects failed in a row.
    const state: { resourceVersion?: string; listed: boolean; attempt: number } = {
      listed: false,
      attempt: 0,
    };
    // Reported from the start: an instance never reached shows as not connected, not as missing.
    recordHealthStreamConnected(watch.instanceName, false);
    const onEvent = (event: ApplicationEvent) => {
      state.attempt = 0;
      state.resourceVersion = event.application.metadata?.resourceVersion ?? state.resourceVersion;
      this.see(known, event);
    };
    while (!signal.aborted) {
      let reason = 'the server ended it';
      try {
        if (!state.resourceVersion || !watch.resumable) {
          const list = await watch.list();
          this.baseline(known, list.applications, state.listed);
          state.listed = true;
          state.resourceVersion = list.resourceVersion;
        }
        // ArgoCD, not resumable, begins a stream without resourceVersion with an ADDED per
        // Application: compared against the list, nothing changed in between is missed.
        const connectedAt = Date.now();
        // Connected while the watch runs: it fails at once when the server cannot be reached.
        recordHealthStreamConnected(watch.instanceName, true);
        await watch
          .watch(watch.resumable ? state.resourceVersion : undefined, onEvent, signal)
          .finally(() => {
            recordHealthStreamConnected(watch.instanceName, false);
            // A connection that lasted counts as a success: the next loss starts the schedule over.
            if (Date.now() - connectedAt > RECONNECT.capMs) state.attempt = 0;
          });
        if (watch.resumable) {
          // A watch the server timed out resumes where it was, at once.
          logger.debug(`Application watch on ${watch.name} ended; resuming`);
          continue;
        }
      } catch (error) {
        if (signal.aborted) break;
        if (error instanceof ResourceVersionGone) {
          logger.info(`Application watch on ${watch.name}: ${error.message}; listing again`);
          state.resourceVersion = undefined;
          continue;
        }
        reason = `${error}`;
      }
      const delay = reconnectDelayMs(state.attempt);
      state.attempt += 1;
      logger.warn(
        `Application stream from ${watch.name} lost (${reason}); reconnecting in ${delay} ms (attempt ${state.attempt})`,
      );
      try {
        await sleep(delay, undefined, { signal });
      } catch {
        break; // stopped
      }
    }
  }

  /** A (re)list: the first only remembers; a later one is compared, as events would be. */
  private baseline(known: Map<string, Application>, applications: Application[], compare: boolean) {
    const listed = new Map(applications.map(application => [keyOf(application), application]));
    if (compare) {
      for (const [key, before] of known) {
        if (!listed.has(key)) this.see(known, { type: 'DELETED', application: before });
      }
      for (const application of listed.values()) this.see(known, { type: 'MODIFIED', application });
    } else {
      known.clear();
      for (const [key, application] of listed) known.set(key, application);
    }
  }

  private see(known: Map<string, Application>, event: ApplicationEvent): void {
    const key = keyOf(event.application);
    const before = known.get(key);
    const after = event.type === 'DELETED' ? undefined : event.application;
    if (after) known.set(key, after);
    else known.delete(key);
    if (!applicationChangeMatters(before, after)) return;
    const product = productOfApplication(this.options.labels, after ?? before);
    if (product) this.debounce(product);
  }

  private debounce(product: ProductRef): void {
    const key = `${product.team}/${product.product}`;
    if (this.pending.has(key)) return;
    this.pending.set(
      key,
      setTimeout(() => {
        this.pending.delete(key);
        this.options.onProductChanged(product).catch(error =>
          this.options.logger.warn(`Could not signal a health change of ${key}: ${error}`),
        );
      }, PRODUCT_DEBOUNCE_MS),
    );
  }
}
