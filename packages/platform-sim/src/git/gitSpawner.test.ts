import { GitSpawner } from './gitSpawner';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1' };

/** Resolves once `holds` does, checking on every turn of the event loop. */
async function until(holds: () => boolean) {
  while (!holds()) await new Promise(resolve => setImmediate(resolve));
}

describe('GitSpawner', () => {
  it("answers with git's exit code, stdout and stderr, and feeds stdin", async () => {
    const spawner = new GitSpawner();
    const version = await spawner.run({ args: ['--version'], env });
    expect(version.exitCode).toBe(0);
    expect(version.stdout.toString()).toMatch(/^git version /);

    const hashed = await spawner.run({ args: ['hash-object', '--stdin'], env, input: 'hello\n' });
    // git's well-known blob id of "hello\n".
    expect(hashed.stdout.toString().trim()).toBe('ce013625030ba8dba906f756967f9e9ca394464a');

    const failed = await spawner.run({ args: ['no-such-command'], env });
    expect(failed.exitCode).toBe(1);
    expect(failed.stderr.toString()).toMatch(/no-such-command/);
  });

  it('lets an idle helper go, and a command sent as it exits runs on a new one', async () => {
    const spawner = new GitSpawner(1);
    await spawner.run({ args: ['--version'], env });
    await until(() => !spawner.hasHelper);
    // The old helper's exit comes while this command waits on its successor: it must not fail it.
    const next = await spawner.run({ args: ['--version'], env });
    expect(next.exitCode).toBe(0);
    await until(() => !spawner.hasHelper);
  });
});
