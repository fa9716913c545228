import { ChildProcess, spawn } from 'child_process';
import path from 'path';
import type { ProcessInput } from './promotionsProcess';

const READY_TIMEOUT_MS = 120_000;

/** A promotions backend replica running as its own OS process (see promotionsProcess.ts). */
export class BackendProcess {
  private constructor(
    private readonly child: ChildProcess,
    private readonly output: { text: string },
    readonly url: string,
  ) {}

  /**
   * Starts a replica and waits until it serves; a busy machine may take a while. The
   * replica listens on a port it found free a moment before: when another socket took
   * it meanwhile (EADDRINUSE), it starts again on another.
   */
  static async start(input: ProcessInput): Promise<BackendProcess> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await BackendProcess.startOnce(input);
      } catch (error) {
        if (attempt >= 3 || !String(error).includes('EADDRINUSE')) throw error;
      }
    }
  }

  private static async startOnce(input: ProcessInput): Promise<BackendProcess> {
    const entry = path.join(__dirname, 'promotionsProcess.ts');
    const child = spawn(process.execPath, ['--require', require.resolve('@backstage/cli/config/nodeTransform.cjs'), entry], {
      env: { ...process.env, PROMOTIONS_PROCESS: JSON.stringify(input), FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output = { text: '' };
    child.stdout!.on('data', chunk => (output.text += chunk));
    child.stderr!.on('data', chunk => (output.text += chunk));
    const port = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`Backend process not ready after ${READY_TIMEOUT_MS} ms:\n${output.text}`)),
        READY_TIMEOUT_MS,
      );
      child.stdout!.on('data', () => {
        const match = output.text.match(/^listening (\d+)$/m);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.once('exit', code => {
        clearTimeout(timer);
        reject(new Error(`Backend process exited with ${code} before it was ready:\n${output.text}`));
      });
    });
    return new BackendProcess(child, output, `http://127.0.0.1:${port}`);
  }

  /** What the process printed (for failure messages). */
  log(): string {
    return this.output.text;
  }

  /** kill -9: no shutdown hooks, no cleanup, connections dropped mid-call. */
  async kill9(): Promise<void> {
    await this.signal('SIGKILL');
  }

  async stop(): Promise<void> {
    await this.signal('SIGTERM', 10_000);
    await this.signal('SIGKILL');
  }

  private signal(signal: NodeJS.Signals, waitMs = 30_000): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve();
    return new Promise(resolve => {
      const timer = setTimeout(resolve, waitMs);
      this.child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      this.child.kill(signal);
    });
  }
}
