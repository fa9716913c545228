import { ChildProcess, spawn } from 'child_process';

/** Backends take their port from config: one nothing listens on now. */
export { freePort } from '@refplat/platform-sim';

export interface BackendProcess {
  child: ChildProcess;
  /** Everything it wrote so far, stdout and stderr. */
  log: () => string;
  /** SIGTERM to its whole process group (npx starts children), SIGKILL after 5 s. */
  stop(): Promise<void>;
}

/** A Backstage backend started in a process group of its own, in development mode, its output kept. */
export function spawnBackend(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): BackendProcess {
  let output = '';
  const child = spawn(command, args, {
    cwd,
    env: { ...env, NODE_ENV: 'development', FORCE_COLOR: '0' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', chunk => (output += chunk));
  child.stderr!.on('data', chunk => (output += chunk));
  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      const exited = new Promise(resolve => child.once('exit', resolve));
      process.kill(-child.pid, 'SIGTERM');
      await Promise.race([exited, new Promise(resolve => setTimeout(resolve, 5000))]);
      if (child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
    }
  };
  return { child, log: () => output, stop };
}
