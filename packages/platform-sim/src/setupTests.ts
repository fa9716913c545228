// Most tests start a simulator (a git repository seeded with the demo
// platform) or wait on its reconcile loop and canaries. On a loaded 2-core CI
// machine, and on a fresh clone whose transform cache is cold, that takes
// well over Jest's 5 s default; the waits themselves are on conditions.
jest.setTimeout(60_000);
