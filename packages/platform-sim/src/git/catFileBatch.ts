import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { ObjectType } from './types';

/** An object's type and bytes, as `git cat-file --batch` gives them. */
export interface GitObject {
  type: ObjectType;
  content: Buffer;
}

type Waiter = { sha: string; resolve: (object: GitObject | null) => void; reject: (error: Error) => void };

/** How long an idle reader is kept for the next read. */
const DEFAULT_IDLE_MS = 5_000;

/**
 * Reads objects by id through one long-lived `git cat-file --batch`, instead
 * of a git process per read. It reads loose and packed objects alike. Reads
 * are answered in the order they were asked, as git answers them. The process
 * is let go after a moment without reads and never keeps this process alive.
 */
export class CatFileBatch {
  private process?: ChildProcessWithoutNullStreams;
  private readonly waiting: Waiter[] = [];
  private received = Buffer.alloc(0);
  private idleTimer?: NodeJS.Timeout;

  constructor(
    private readonly gitDir: string,
    private readonly env: Record<string, string>,
    private readonly idleMs = DEFAULT_IDLE_MS,
  ) {}

  /** The object, or null when the repository has none of that id. */
  read(sha: string): Promise<GitObject | null> {
    clearTimeout(this.idleTimer);
    const reader = this.started();
    return new Promise((resolve, reject) => {
      this.waiting.push({ sha, resolve, reject });
      this.hold(reader, true);
      reader.stdin.write(`${sha}\n`);
    });
  }

  private started(): ChildProcessWithoutNullStreams {
    if (this.process) return this.process;
    const reader = spawn('git', ['--git-dir', this.gitDir, 'cat-file', '--batch'], {
      env: this.env,
    });
    this.received = Buffer.alloc(0);
    reader.stdout.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      this.answer();
    });
    reader.stdin.on('error', () => {}); // the exit below says what went wrong
    reader.stderr.resume();
    reader.on('exit', code => {
      if (this.process !== reader) return;
      this.process = undefined;
      const error = new Error(`git cat-file --batch exited (${code})`);
      for (const waiter of this.waiting.splice(0)) waiter.reject(error);
    });
    this.process = reader;
    return reader;
  }

  /** Settles each read whose whole answer has arrived: `<sha> <type> <size>\n<bytes>\n` or `<sha> missing\n`. */
  private answer() {
    for (;;) {
      const waiter = this.waiting[0];
      const lineEnd = this.received.indexOf(0x0a);
      if (!waiter || lineEnd < 0) break;
      const [, type, size] = this.received.toString('latin1', 0, lineEnd).split(' ');
      if (type === 'missing' || size === undefined) {
        this.received = this.received.subarray(lineEnd + 1);
        this.waiting.shift();
        waiter.resolve(null);
        continue;
      }
      const end = lineEnd + 1 + Number(size);
      if (this.received.length < end + 1) break;
      const content = Buffer.from(this.received.subarray(lineEnd + 1, end));
      this.received = this.received.subarray(end + 1);
      this.waiting.shift();
      waiter.resolve({ type: type as ObjectType, content });
    }
    if (this.waiting.length === 0 && this.process) this.idle(this.process);
  }

  private idle(reader: ChildProcessWithoutNullStreams) {
    this.hold(reader, false);
    this.idleTimer = setTimeout(() => {
      if (this.process !== reader || this.waiting.length > 0) return;
      this.process = undefined;
      reader.stdin.end();
    }, this.idleMs).unref();
  }

  /** A reader with reads in flight keeps this process alive; an idle one does not. */
  private hold(reader: ChildProcessWithoutNullStreams, hold: boolean) {
    const handles = [reader, reader.stdin, reader.stdout, reader.stderr] as Array<{ ref(): void; unref(): void }>;
    for (const handle of handles) {
      if (hold) handle.ref();
      else handle.unref();
    }
  }
}
