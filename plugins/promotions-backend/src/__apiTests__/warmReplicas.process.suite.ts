import { mockCredentials } from '@backstage/backend-test-utils';
import type { RunningSim } from '@refplat/platform-sim';
import type { Ladder } from '@refplat/plugin-promotions-common';
import { BackendProcess } from '../__testUtils__/backendProcess';
import { createFreshDatabase, postgresAnswers, POSTGRES_URL } from '../__testUtils__/freshPostgres';
import { REDIS_URL, redisAnswers, redisCacheConfig } from '../__testUtils__/redis';
import { sharedSim } from '../__testUtils__/sharedSimBackend';
import { FAST_SIM_TIMINGS, simAddresses } from '../__testUtils__/testBackend';

const services = [
  ['PostgreSQL', postgresAnswers(), new URL(POSTGRES_URL).host],
  ['Redis', redisAnswers(), new URL(REDIS_URL).host],
] as const;
const missing = services.filter(([, answers]) => !answers);
const [describeWithBoth, where] = missing.length
  ? [describe.skip, `skipped: ${missing.map(([name, , host]) => `${name} does not answer at ${host}`).join(', ')}`]
  : [describe, `on PostgreSQL and Redis`];

/** Replicas starting warm (was warmReplicas.process.test.ts), on the file's simulator. */
export function warmReplicasSuite() {
  /**
   * Replicas as OS processes sharing PostgreSQL and a Redis cache
   * (`backend.cache.store: redis`): what one replica read from GitHub (the
   * tree, the blobs, the branch head's ETag) another replica, or a restarted
   * one, finds warm. Its first view of an unchanged repo costs one GitHub
   * request, answered 304, which GitHub does not charge.
   */
  describeWithBoth(`replicas start warm from a shared cache (${where})`, () => {
    // The file's simulator, read and not changed (the seeded alpha/shop). Its requests are counted while only these replicas run on it.
    // A simulator of its own: it counts every GitHub request its views cause.
    const shared = sharedSim(FAST_SIM_TIMINGS, 'warm-replicas');
    let sim: RunningSim;
    let database: Awaited<ReturnType<typeof createFreshDatabase>>;
    const replicas: BackendProcess[] = [];
    const cache = redisCacheConfig();

    const startReplica = async () => {
      const replica = await BackendProcess.start({
        sim: simAddresses(sim),
        database: database.url,
        // Only views talk to GitHub here: no Gate sweeps in the counts.
        gate: { enabled: false },
        cache,
      });
      replicas.push(replica);
      return replica;
    };

    const firstView = async (replica: BackendProcess) => {
      sim.control.clearRequests();
      const response = await fetch(`${replica.url}/api/promotions/products/alpha/shop/ladder`, {
        headers: { authorization: mockCredentials.user.header('user:default/bob') },
      });
      expect(response.status).toBe(200);
      const ladder: Ladder = await response.json();
      const github = sim.control.getRequests('github');
      return { ladder, github: github.map(call => `${call.method} ${call.path} → ${call.status}`) };
    };

    const digests = (ladder: Ladder) =>
      ladder.stages.map(stage => [
        stage.name,
        Object.fromEntries(Object.entries(stage.services).map(([service, cell]) => [service, cell.digest])),
      ]);

    beforeAll(async () => {
      sim = shared.sim;
      database = await createFreshDatabase();
    });

    afterAll(async () => {
      await Promise.all(replicas.map(replica => replica.stop()));
      await database?.drop();
    });

    it("a second replica's first view, and a restarted replica's, cost one GitHub request answered 304", async () => {
      const first = await startReplica();
      const cold = await firstView(first);
      // cold: the head, the tree, and the Release and Environment files (a small repository's tarball and its download)
      expect(cold.github.length).toBeGreaterThan(3);

      const second = await startReplica();
      const warm = await firstView(second);
      expect(warm.github).toEqual(['GET /repos/refplat/platform/commits/heads/main → 304']);
      expect(warm.ladder.revision).toBe(cold.ladder.revision);
      // the same Releases, read from the shared cache instead of GitHub
      expect(digests(warm.ladder)).toEqual(digests(cold.ladder));

      await first.stop();
      const restarted = await startReplica();
      const afterRestart = await firstView(restarted);
      expect(afterRestart.github).toEqual(['GET /repos/refplat/platform/commits/heads/main → 304']);
    });
  });
}
