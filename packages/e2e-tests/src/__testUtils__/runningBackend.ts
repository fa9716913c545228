import { BackendProcess } from './backendProcess';

/** A started Backstage backend, outside this repository, and what tests ask of it. */
export interface RunningBackend {
  baseUrl: string;
  log: () => string;
  /** A token from the guest sign-in, as the app gets one. */
  guestToken: () => Promise<string>;
  /** Polls a GET until it answers 200 (or 60 s pass); returns the last status. */
  eventuallyOk: (path: string, token: string) => Promise<number>;
  stop(): Promise<void>;
}

async function waitUntilReady(baseUrl: string, backend: BackendProcess) {
  // A first start compiles the backend's TypeScript on a loaded machine.
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    // A failed plugin start leaves the process running, never ready.
    if (
      backend.child.exitCode !== null ||
      backend.log().includes('Backend startup failed')
    ) {
      throw new Error(`backend did not start:\n${backend.log()}`);
    }
    const ready = await fetch(`${baseUrl}/.backstage/health/v1/readiness`).then(
      r => r.ok,
      () => false,
    );
    if (ready) return;
    await new Promise(resolve => setTimeout(resolve, 500));
  }
  throw new Error(`backend not ready after 180 s:\n${backend.log()}`);
}

/**
 * Waits until `backend` answers at `baseUrl` as ready; stops it (and runs
 * `cleanUp`) if it never does.
 */
export async function whenReady(
  baseUrl: string,
  backend: BackendProcess,
  cleanUp: () => void = () => {},
): Promise<RunningBackend> {
  const stop = async () => {
    await backend.stop();
    cleanUp();
  };
  try {
    await waitUntilReady(baseUrl, backend);
  } catch (error) {
    await stop();
    throw error;
  }
  const guestToken = async () => {
    const response = await fetch(`${baseUrl}/api/auth/guest/refresh`, {
      headers: { 'x-requested-with': 'XMLHttpRequest' },
    });
    if (!response.ok)
      throw new Error(`guest sign-in failed: ${await response.text()}`);
    return (await response.json()).backstageIdentity.token as string;
  };
  const eventuallyOk = async (route: string, token: string) => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const { status } = await fetch(`${baseUrl}${route}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      if (status === 200 || Date.now() > deadline) return status;
      await new Promise(resolve => setTimeout(resolve, 500));
    }
  };
  return { baseUrl, log: backend.log, guestToken, eventuallyOk, stop };
}
