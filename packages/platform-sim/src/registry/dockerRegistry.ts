import { ChildProcess, spawn } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { freePort } from '../http/freePort';

/** Debian's `docker-registry` (CNCF Distribution); `apt-get install docker-registry`. */
export const DOCKER_REGISTRY_BINARY = process.env.DOCKER_REGISTRY_PATH ?? '/usr/bin/docker-registry';

/** A real OCI registry on a free local port, its storage in a temporary directory. */
export interface RunningRegistry {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** `127.0.0.1:<port>`, as image references name it. */
  host: string;
  stop(): Promise<void>;
}

/** Whether Debian's docker-registry is installed; tests that need it say so and skip when not. */
export function dockerRegistryInstalled(): boolean {
  return fs.existsSync(DOCKER_REGISTRY_BINARY);
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/v2/`, { signal: AbortSignal.timeout(2_000) });
    return response.status === 200;
  } catch {
    return false;
  }
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise(resolve => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/**
 * Starts `docker-registry serve` with deletes enabled, on `port` (default: a
 * free one), and waits until `/v2/` answers (up to 30 s: a busy machine
 * starts it slowly).
 */
export async function startDockerRegistry(options: { port?: number } = {}): Promise<RunningRegistry> {
  if (!dockerRegistryInstalled()) {
    throw new Error(`${DOCKER_REGISTRY_BINARY} not found: install Debian's docker-registry (apt-get install -y docker-registry)`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'refplat-registry-'));
  const port = options.port ?? (await freePort());
  const configFile = path.join(dir, 'config.yml');
  fs.writeFileSync(
    configFile,
    [
      'version: 0.1',
      'log:',
      '  level: error',
      'storage:',
      '  filesystem:',
      `    rootdirectory: ${path.join(dir, 'data')}`,
      '  delete:',
      '    enabled: true',
      'http:',
      `  addr: 127.0.0.1:${port}`,
      '',
    ].join('\n'),
  );
  const output: string[] = [];
  const child = spawn(DOCKER_REGISTRY_BINARY, ['serve', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', chunk => output.push(String(chunk)));
  child.stderr?.on('data', chunk => output.push(String(chunk)));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    child.kill('SIGTERM');
    await exited(child);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  while (!(await answers(url))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`docker-registry did not start on ${url}: ${output.join('').slice(-2000)}`);
    }
    await new Promise(resolve => setTimeout(resolve, 100));
  }
  return { url, host: `127.0.0.1:${port}`, stop };
}
