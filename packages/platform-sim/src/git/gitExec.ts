import { gitSpawner } from './gitSpawner';

export interface GitExecOptions {
  /** Bytes written to git's stdin (hash-object --stdin, mktree, ...). */
  input?: string | Buffer;
  /** Extra environment (author identity, GIT_INDEX_FILE, ...). */
  env?: Record<string, string>;
  /** Exit codes that are answers rather than failures (e.g. 1 for --is-ancestor). */
  okExitCodes?: number[];
}

export interface GitExecResult {
  stdout: Buffer;
  exitCode: number;
}

export class GitCommandError extends Error {
  constructor(
    readonly args: string[],
    readonly exitCode: number,
    readonly stderr: string,
  ) {
    super(
      `git ${args.join(' ')} failed with exit code ${exitCode}: ${stderr.trim()}`,
    );
    this.name = 'GitCommandError';
  }
}

// Isolate the simulator from whatever git configuration the machine has:
// a user's hooks, signing or templates must not change what we write.
const ISOLATED_ENV: Record<string, string> = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
  LC_ALL: 'C',
};

/** The environment a git command runs in: the machine's git configuration left out. */
export function gitEnvironment(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    ...ISOLATED_ENV,
    ...extra,
  };
}

/** Runs one git command against a git dir and returns raw stdout. */
export async function runGit(
  gitDir: string,
  args: string[],
  options: GitExecOptions = {},
): Promise<GitExecResult> {
  const { exitCode, stdout, stderr } = await gitSpawner.run({
    args: ['--git-dir', gitDir, ...args],
    env: gitEnvironment(options.env),
    input: options.input,
  });
  if (exitCode !== 0 && !(options.okExitCodes ?? []).includes(exitCode)) {
    throw new GitCommandError(args, exitCode, stderr.toString('utf8'));
  }
  return { stdout, exitCode };
}

/** Convenience: stdout as trimmed text. */
export async function gitText(
  gitDir: string,
  args: string[],
  options: GitExecOptions = {},
): Promise<string> {
  const { stdout } = await runGit(gitDir, args, options);
  return stdout.toString('utf8').trim();
}
