/**
 * A promotions backend replica as an OS process of its own, for tests that
 * kill it (kill -9) mid-request or run several replicas. Started by
 * BackendProcess with `node -r @backstage/cli/config/nodeTransform.cjs` and
 * the environment variable PROMOTIONS_PROCESS (JSON: ProcessInput). Prints
 * `listening <port>` once it serves.
 *
 * A replica is composed as packages/backend is, with createBackend and its
 * real services (database: each plugin in a schema of its own in the shared
 * database; HTTP with WebSocket upgrades; discovery; events; cache) and the
 * events and signals backends next to the promotions plugin. Only auth, the
 * users and the catalog are the test's (see promotionsBackendFeatures), and
 * the root logger does not redact the config's secrets (below).
 */
import { createServer } from 'net';
import type { JsonObject } from '@backstage/types';
import { createBackend } from '@backstage/backend-defaults';
import { WinstonLogger } from '@backstage/backend-defaults/rootLogger';
import { coreServices, createServiceFactory } from '@backstage/backend-plugin-api';
import { mockServices } from '@backstage/backend-test-utils';
import eventsPlugin from '@backstage/plugin-events-backend';
import signalsPlugin from '@backstage/plugin-signals-backend';
import { SimAddresses, promotionsBackendFeatures } from './testBackend';

export interface ProcessInput {
  sim: SimAddresses;
  /** PostgreSQL connection string of the database the replicas share. */
  database: string;
  /** Merged into `promotions.gate`. */
  gate?: JsonObject;
  /** `backend.cache` (e.g. Redis, shared by the replicas); the in-memory mock otherwise. */
  cache?: JsonObject;
  /**
   * `events.useEventBus`: 'auto' (the default) carries events between replicas
   * through the events backend's database-backed bus; 'never' keeps each
   * replica's events to itself.
   */
  eventBus?: 'auto' | 'never';
}

/** A port nothing listens on now: the real root HTTP router takes its port from config. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function main() {
  const input: ProcessInput = JSON.parse(process.env.PROMOTIONS_PROCESS ?? '{}');
  const port = await freePort();
  const backend = createBackend();
  // The test's token scheme (mockCredentials), so a test can act as a user.
  backend.add(mockServices.auth.factory());
  // Backstage's root logger without its redaction of config secrets: to find
  // them it compiles every workspace package's config.d.ts with TypeScript,
  // about half of a replica's start-up CPU; a replica's config holds test tokens only.
  backend.add(
    createServiceFactory({
      service: coreServices.rootLogger,
      deps: {},
      factory: () => WinstonLogger.create({ meta: { service: 'backstage' } }),
    }),
  );
  const features = promotionsBackendFeatures(input.sim, 'argocd', {
    gate: input.gate,
    features: [eventsPlugin, signalsPlugin],
    rootConfig: {
      backend: {
        // Events go to this replica's own events backend, found at baseUrl.
        baseUrl: `http://127.0.0.1:${port}`,
        listen: { host: '127.0.0.1', port },
        database: { client: 'pg', connection: input.database, pluginDivisionMode: 'schema', ensureSchemaExists: true },
        ...(input.cache ? { cache: input.cache } : {}),
      },
      events: { useEventBus: input.eventBus ?? 'auto' },
    },
  });
  features.forEach(feature => backend.add(feature));
  await backend.start();
  process.stdout.write(`listening ${port}\n`);
}

main().catch(error => {
  process.stderr.write(
    `promotions process failed to start: ${error?.stack ?? error}\n`,
  );
  process.exit(1);
});
