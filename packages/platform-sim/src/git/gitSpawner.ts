import { ChildProcess, spawn } from 'node:child_process';
import pLimit from 'p-limit';

/** One git command: its arguments (after `git`), environment and stdin. */
export interface GitCommand {
  args: string[];
  env: Record<string, string>;
  input?: string | Buffer;
}

/** What git answered: -1 as exit code when it could not be run at all. */
export interface GitAnswer {
  exitCode: number;
  stdout: Buffer;
  stderr: Buffer;
}

// The helper: runs each command it is sent and sends back what git answered.
const HELPER_SOURCE = `
const { execFile } = require('node:child_process');
process.on('message', ({ id, args, env, input }) => {
  const child = execFile('git', args, { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024, env },
    (error, stdout, stderr) => {
      const exitCode = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      const detail = exitCode === -1 && stderr.length === 0 ? Buffer.from(String(error)) : stderr;
      process.send({ id, exitCode, stdout, stderr: detail });
    });
  child.stdin.on('error', () => {});
  child.stdin.end(input === undefined ? undefined : Buffer.from(input));
});
process.on('disconnect', () => process.exit(0));
`;

/** How long an idle helper is kept for the next command. */
const DEFAULT_IDLE_MS = 2_000;
/** Git processes at once: callers may read many files together, on a 2-core machine. */
const CONCURRENT_COMMANDS = 4;

/** A command sent and not answered yet. */
type Pending = { resolve: (answer: GitAnswer) => void; reject: (error: Error) => void };

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);

/**
 * Runs git commands from one small helper process. Forking git straight from a test worker or a
 * backend of several hundred MB copies its page tables on every command, on the event loop: about
 * 25 ms a command, most of a simulator test's CPU. Forking from a helper of 50 MB costs a third
 * of that, off this process's event loop. The helper holds nothing open while idle: it is let go
 * after a moment without commands, and never keeps this process alive.
 */
export class GitSpawner {
  private helper?: ChildProcess;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();
  private idleTimer?: NodeJS.Timeout;
  private readonly limit = pLimit(CONCURRENT_COMMANDS);

  constructor(private readonly idleMs = DEFAULT_IDLE_MS) {}

  /** Whether a helper is running (or starting) now. */
  get hasHelper(): boolean {
    return this.helper !== undefined;
  }

  run(command: GitCommand): Promise<GitAnswer> {
    return this.limit(() => this.send(command));
  }

  private send(command: GitCommand): Promise<GitAnswer> {
    clearTimeout(this.idleTimer);
    const helper = this.started();
    const id = this.nextId++;
    return new Promise<GitAnswer>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.holdOpen(helper, true);
      helper.send({ id, ...command }, error => {
        if (error) this.settle(id, entry => entry.reject(error));
      });
    });
  }

  private started(): ChildProcess {
    if (this.helper) return this.helper;
    const helper = spawn(process.execPath, ['-e', HELPER_SOURCE], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      serialization: 'advanced',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    });
    helper.on('message', (answer: { id: number; exitCode: number; stdout: Uint8Array; stderr: Uint8Array }) =>
      this.settle(answer.id, entry =>
        entry.resolve({
          exitCode: answer.exitCode,
          stdout: asBuffer(answer.stdout),
          stderr: asBuffer(answer.stderr),
        }),
      ),
    );
    helper.on('exit', (code, signal) => {
      // A helper let go while idle had nothing pending: what is pending now is its successor's.
      if (this.helper !== helper) return;
      this.helper = undefined;
      const error = new Error(`The git helper process exited (${signal ?? code})`);
      for (const id of [...this.pending.keys()]) this.settle(id, entry => entry.reject(error));
    });
    this.helper = helper;
    return helper;
  }

  private settle(id: number, finish: (entry: Pending) => void) {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    finish(entry);
    if (this.pending.size > 0 || !this.helper) return;
    const helper = this.helper;
    this.holdOpen(helper, false);
    this.idleTimer = setTimeout(() => {
      if (this.helper !== helper || this.pending.size > 0) return;
      this.helper = undefined;
      helper.disconnect();
    }, this.idleMs).unref();
  }

  /** A helper with commands in flight keeps this process alive; an idle one does not. */
  private holdOpen(helper: ChildProcess, hold: boolean) {
    const channel = helper.channel as { ref(): void; unref(): void } | null | undefined;
    if (hold) {
      helper.ref();
      channel?.ref();
    } else {
      helper.unref();
      channel?.unref();
    }
  }
}

/** This process's git runner. */
export const gitSpawner = new GitSpawner();
