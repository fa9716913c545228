import type { Application } from '@refplat/plugin-promotions-common';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import { ArgoCdInstanceConfig } from './healthInstances';
import { argoCdFetch, argoCdGet } from './ArgoCdHealthSource';
import { ApplicationEvent, ApplicationWatch } from './ApplicationWatch';
import { ApplicationLabels, productLabelSelector } from './HealthSource';

/** One line of grpc-gateway's streamed answer: a result, or the error that ends the stream. */
interface StreamLine {
  result?: ApplicationEvent;
  error?: { message?: string; http_code?: number; grpc_code?: number };
}

/**
 * ArgoCD's application event stream (`GET /api/v1/stream/applications`,
 * ApplicationService.Watch through grpc-gateway): newline-delimited JSON for as
 * long as the connection lasts, for every Application with the Product labels.
 */
export class ArgoCdApplicationStream implements ApplicationWatch {
  readonly resumable = false;
  private readonly selector: string;

  constructor(
    private readonly instance: ArgoCdInstanceConfig,
    labels: ApplicationLabels,
  ) {
    this.selector = encodeURIComponent(productLabelSelector(labels));
  }

  get name(): string {
    return `ArgoCD '${this.instance.name}'`;
  }

  get instanceName(): string {
    return this.instance.name;
  }

  async list() {
    const body = await argoCdGet<{
      metadata?: { resourceVersion?: string };
      items?: Application[] | null;
    }>(this.instance, `/api/v1/applications?selector=${this.selector}`);
    return { applications: body.items ?? [], resourceVersion: body.metadata?.resourceVersion };
  }

  /** With a resourceVersion ArgoCD skips its initial ADDED per Application: the list gave them. */
  async watch(
    resourceVersion: string | undefined,
    onEvent: (event: ApplicationEvent) => void,
    signal: AbortSignal,
  ): Promise<void> {
    const query = resourceVersion
      ? `&resourceVersion=${encodeURIComponent(resourceVersion)}`
      : '';
    const response = await argoCdFetch(
      this.instance,
      `/api/v1/stream/applications?selector=${this.selector}${query}`,
      signal,
    );
    if (!response.body) return;
    const lines = createInterface(Readable.fromWeb(response.body as ReadableStream));
    for await (const line of lines) {
      if (!line.trim()) continue;
      const parsed = JSON.parse(line) as StreamLine;
      if (parsed.error) {
        throw new Error(`stream error from ${this.instance.baseUrl}: ${parsed.error.message}`);
      }
      if (parsed.result?.application) onEvent(parsed.result);
    }
  }
}
