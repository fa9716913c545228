import { createHmac, randomUUID } from 'node:crypto';

/** Where the simulated GitHub delivers webhooks: a repository webhook with a secret, content type JSON. */
export interface WebhookTarget {
  url: string;
  secret: string;
}

/** One delivery as GitHub's "Recent Deliveries" list shows it. */
export interface WebhookDelivery {
  id: string;
  event: string;
  action?: string;
  /** HTTP status of the receiver's answer; 0 when it could not be reached. */
  status: number;
  deliveredAt: string;
}

/** GitHub signs the raw body with HMAC-SHA256 of the webhook secret. */
export function signWebhookBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * Delivers GitHub-shaped webhooks, one at a time in the order they happened (GitHub
 * does not promise an order; delivering in order keeps tests readable). Payloads are
 * built lazily so nothing is computed while no webhook is configured. A receiver that
 * fails or is down loses the delivery, as on GitHub (which does not retry on its own).
 */
export class WebhookSender {
  private target: WebhookTarget | undefined;
  private queue: Promise<void> = Promise.resolve();
  private readonly log: WebhookDelivery[] = [];

  constructor(target?: WebhookTarget) {
    this.target = target;
  }

  /** Sets (or with undefined removes) the repository webhook. */
  configure(target: WebhookTarget | undefined): void {
    this.target = target;
  }

  get configured(): boolean {
    return this.target !== undefined;
  }

  /** The newest deliveries last (at most 100 kept). */
  deliveries(): WebhookDelivery[] {
    return [...this.log];
  }

  /** Resolves once every delivery queued so far has been attempted. */
  idle(): Promise<void> {
    return this.queue;
  }

  send(event: string, payload: () => Promise<Record<string, unknown> | undefined>): void {
    const target = this.target;
    if (!target) return;
    this.queue = this.queue.then(() => this.deliver(target, event, payload));
  }

  private async deliver(
    target: WebhookTarget,
    event: string,
    build: () => Promise<Record<string, unknown> | undefined>,
  ): Promise<void> {
    const id = randomUUID();
    let payload: Record<string, unknown> | undefined;
    let status = 0;
    try {
      payload = await build();
      if (!payload) return;
      const body = JSON.stringify(payload);
      const response = await fetch(target.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'GitHub-Hookshot/sim',
          'x-github-event': event,
          'x-github-delivery': id,
          'x-github-hook-id': '1',
          'x-hub-signature-256': signWebhookBody(target.secret, body),
        },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      status = response.status;
      await response.arrayBuffer().catch(() => undefined);
    } catch {
      status = 0;
    } finally {
      if (payload) {
        this.log.push({
          id,
          event,
          action: typeof payload.action === 'string' ? payload.action : undefined,
          status,
          deliveredAt: new Date().toISOString(),
        });
        if (this.log.length > 100) this.log.shift();
      }
    }
  }
}
