/**
 * A promotions backend replica as an OS process of its own, for tests that
 * kill it (kill -9) mid-request. Started by BackendProcess with
 * `node -r @backstage/cli/config/nodeTransform.cjs` and the environment
 * variable PROMOTIONS_PROCESS (JSON: ProcessInput). Prints `listening <port>`
 * once it serves.
 */
import { AddressInfo } from 'net';
import knexFactory from 'knex';
import type { JsonObject } from '@backstage/types';
import { cacheServiceFactory } from '@backstage/backend-defaults/cache';
import { SimAddresses, startPromotionsBackend } from './testBackend';

export interface ProcessInput {
  sim: SimAddresses;
  /** PostgreSQL connection string of the database the replicas share. */
  database: string;
  /** Merged into `promotions.gate`. */
  gate?: JsonObject;
  /** `backend.cache` (e.g. Redis, shared by the replicas); the in-memory mock otherwise. */
  cache?: JsonObject;
}

async function main() {
  const input: ProcessInput = JSON.parse(process.env.PROMOTIONS_PROCESS ?? '{}');
  const knex = knexFactory({ client: 'pg', connection: input.database, pool: { min: 0, max: 5 } });
  const server = await startPromotionsBackend(input.sim, 'argocd', {
    knex,
    gate: input.gate,
    ...(input.cache
      ? { services: [cacheServiceFactory], rootConfig: { backend: { cache: input.cache } } }
      : {}),
  });
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
}

main().catch(error => {
  process.stderr.write(`promotions process failed to start: ${error?.stack ?? error}\n`);
  process.exit(1);
});
