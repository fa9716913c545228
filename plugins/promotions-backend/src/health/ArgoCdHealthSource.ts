import type {
  Application,
  ProductRef,
  Rollout,
} from '@refplat/plugin-promotions-common';
import { ArgoCdInstanceConfig } from '../config';
import {
  ApplicationListing,
  HealthSource,
  ObservedApplication,
  listFromEach,
  productLabelSelector,
} from './HealthSource';

const REQUEST_TIMEOUT_MS = 10_000;

class ArgoCdRequestError extends Error {
  constructor(message: string, readonly status?: number) {
    super(message);
  }
}

/**
 * Reads Applications and live Rollouts from the ArgoCD REST API with a
 * bearer token (no session login per call), from one or more instances.
 */
export class ArgoCdHealthSource implements HealthSource {
  constructor(private readonly instances: ArgoCdInstanceConfig[]) {}

  async listApplications(product?: ProductRef): Promise<ApplicationListing> {
    const selector = encodeURIComponent(productLabelSelector(product));
    return listFromEach(this.instances, 'ArgoCD', async instance => {
      const body = await this.get<{ items?: Application[] | null }>(
        instance,
        `/api/v1/applications?selector=${selector}`,
      );
      return (body.items ?? []).map(
        (application): ObservedApplication => ({
          application,
          source: instance.name,
          uiUrl: application.metadata?.name
            ? `${instance.uiUrl}/applications/${application.metadata.namespace ?? 'argocd'}/${application.metadata.name}`
            : undefined,
        }),
      );
    });
  }

  async getRollout(
    observed: ObservedApplication,
    service: string,
  ): Promise<Rollout | undefined> {
    const instance = this.instances.find(i => i.name === observed.source);
    const app = observed.application;
    const appName = app.metadata?.name;
    const namespace = app.spec?.destination?.namespace;
    if (!instance || !appName || !namespace) return undefined;
    const query = new URLSearchParams({
      namespace,
      resourceName: service,
      group: 'argoproj.io',
      kind: 'Rollout',
      version: 'v1alpha1',
    });
    if (app.metadata?.namespace) query.set('appNamespace', app.metadata.namespace);
    try {
      const body = await this.get<{ manifest?: string }>(
        instance,
        `/api/v1/applications/${encodeURIComponent(appName)}/resource?${query}`,
      );
      return body.manifest ? (JSON.parse(body.manifest) as Rollout) : undefined;
    } catch (error) {
      // ArgoCD answers 403 (not 404) for what does not exist or is not visible.
      if (error instanceof ArgoCdRequestError && (error.status === 403 || error.status === 404)) {
        return undefined;
      }
      throw error;
    }
  }

  private async get<T>(instance: ArgoCdInstanceConfig, path: string): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${instance.baseUrl}${path}`, {
        headers: {
          authorization: `Bearer ${instance.token}`,
          accept: 'application/json',
        },
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      throw new ArgoCdRequestError(
        `cannot reach ${instance.baseUrl}: ${(error as Error).cause ?? (error as Error).message}`,
      );
    }
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      let message = text.slice(0, 200);
      try {
        message = JSON.parse(text).message ?? message;
      } catch {
        // not JSON: keep the text
      }
      throw new ArgoCdRequestError(
        `HTTP ${response.status} from ${instance.baseUrl}: ${message}`,
        response.status,
      );
    }
    return (await response.json()) as T;
  }
}
