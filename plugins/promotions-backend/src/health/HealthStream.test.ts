import { mockLogger } from '../__testUtils__/lightServices';
import type { Application, ProductRef } from '@refplat/plugin-promotions-common';
import { ApplicationEvent, ApplicationWatch, ResourceVersionGone } from './ApplicationWatch';
import { HealthStream } from './HealthStream';
import { until } from '../__testUtils__/until';

/** Label keys of an adopter's ApplicationSet template (promotions.applications.labels). */
const LABELS = { team: 'example.com/team', product: 'example.com/product' };

function app(name: string, team: string, product: string, health: string, resourceVersion: string): Application {
  return {
    metadata: {
      name,
      namespace: 'argocd',
      resourceVersion,
      labels: { 'example.com/team': team, 'example.com/product': product },
    },
    status: { health: { status: health }, sync: { status: 'Synced', revision: 'a1' } },
  };
}

describe('HealthStream', () => {
  it('signals only meaningful changes, once per Product, and lists again after 410 Gone', async () => {
    const lists = [
      { applications: [app('shop-test', 'alpha', 'shop', 'Healthy', '1')], resourceVersion: '1' },
      {
        applications: [
          app('shop-test', 'alpha', 'shop', 'Degraded', '3'),
          app('payments-test', 'beta', 'payments', 'Healthy', '4'),
        ],
        resourceVersion: '5',
      },
    ];
    const watchedFrom: Array<string | undefined> = [];
    const watch: ApplicationWatch = {
      name: 'fake',
      instanceName: 'fake',
      resumable: true,
      list: async () => lists.shift()!,
      watch: async (resourceVersion, onEvent: (event: ApplicationEvent) => void, signal) => {
        watchedFrom.push(resourceVersion);
        if (watchedFrom.length === 1) {
          const churn = app('shop-test', 'alpha', 'shop', 'Healthy', '2');
          churn.status!.reconciledAt = '2026-01-01T00:00:00Z';
          onEvent({ type: 'MODIFIED', application: churn });
          onEvent({ type: 'MODIFIED', application: app('shop-test', 'alpha', 'shop', 'Progressing', '3') });
          onEvent({ type: 'MODIFIED', application: app('shop-test', 'alpha', 'shop', 'Degraded', '3') });
          throw new ResourceVersionGone('too old resource version');
        }
        await new Promise(resolve => signal.addEventListener('abort', resolve));
        throw signal.reason;
      },
    };
    const signalled: ProductRef[] = [];
    const stream = new HealthStream({
      watches: [watch],
      logger: mockLogger(),
      labels: LABELS,
      onProductChanged: async product => {
        signalled.push(product);
      },
    });
    stream.start();
    await until(() => signalled.length >= 2);
    await stream.stop();

    // The burst of shop events is one signal; payments appeared while the watch was gone.
    expect(signalled).toEqual([
      { team: 'alpha', product: 'shop' },
      { team: 'beta', product: 'payments' },
    ]);
    expect(watchedFrom).toEqual(['1', '5']);
    expect(lists).toHaveLength(0);
  });
});
