import { spawnSync } from 'child_process';
import { randomBytes } from 'crypto';

/** The Redis tests use: the CI's, else the local one. */
export const REDIS_URL = process.env.PROMOTIONS_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Whether Redis answers PING, decided synchronously (a test file chooses
 * between `describe` and `describe.skip` when it loads).
 */
export function redisAnswers(): boolean {
  const { hostname, port } = new URL(REDIS_URL);
  const probe = spawnSync(
    process.execPath,
    [
      '-e',
      `const socket = require('net').connect(${Number(port || 6379)}, ${JSON.stringify(hostname)});
       socket.setTimeout(3000, () => process.exit(1));
       socket.on('error', () => process.exit(1));
       socket.on('connect', () => socket.write('PING\\r\\n'));
       socket.on('data', data => process.exit(String(data).startsWith('+PONG') ? 0 : 1));`,
    ],
    { timeout: 15_000 },
  );
  return probe.status === 0;
}

/** `backend.cache` on Redis, in a namespace of its own so test runs never share keys. */
export function redisCacheConfig(namespace = `promotions-test-${randomBytes(4).toString('hex')}`) {
  return { store: 'redis', connection: REDIS_URL, redis: { client: { namespace } } };
}
