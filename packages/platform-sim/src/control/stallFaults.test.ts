import { RunningSim } from '../sim';
import { startTestSim, stopTestSim, waitFor } from '../__testUtils__/testSim';

/**
 * Stalls let a test kill a client while it waits on one exact upstream
 * call: 'stall' before the call has any effect, 'stall-response' after.
 */
describe('stall faults', () => {
  let sim: RunningSim;

  beforeAll(async () => {
    sim = await startTestSim();
  });
  afterAll(() => stopTestSim(sim));
  afterEach(() => sim.control.clearFaults());

  const github = (method: string, route: string, body?: object, signal?: AbortSignal) =>
    fetch(`${sim.githubApiUrl}/repos/refplat/platform${route}`, {
      method,
      headers: { authorization: `token ${sim.tokens.github}`, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
      signal,
    });

  /** Sends a call that will stall, waits until the simulator holds it, then walks away from it. */
  async function abandonStalledCall(method: string, route: string, body?: object) {
    const client = new AbortController();
    const call = github(method, route, body, client.signal).catch(error => error);
    await waitFor(async () => sim.control.getState().faults.length === 0);
    client.abort();
    expect(await call).toMatchObject({ name: 'AbortError' });
  }

  it("'stall' holds a call without handling it: the branch is never created", async () => {
    const fault = sim.control.addFault({ target: 'github', method: 'POST', path: '/git/refs', kind: 'stall' });
    expect(sim.control.getState().faults).toEqual([expect.objectContaining({ id: fault.id, remaining: 1 })]);
    await abandonStalledCall('POST', '/git/refs', { ref: 'refs/heads/stalled', sha: sim.control.getState().mainSha });
    expect((await github('GET', '/git/ref/heads/stalled')).status).toBe(404);
  });

  it("'stall-response' handles a call and withholds the answer: the branch exists", async () => {
    sim.control.addFault({ target: 'github', method: 'POST', path: '/git/refs', kind: 'stall-response' });
    await abandonStalledCall('POST', '/git/refs', { ref: 'refs/heads/unanswered', sha: sim.control.getState().mainSha });
    // The handler finishes on its own time after the client went away.
    await waitFor(async () => (await github('GET', '/git/ref/heads/unanswered')).status === 200);
    expect((await github('GET', '/git/ref/heads/unanswered')).status).toBe(200);
  });

  it('applies a stall to one call only', async () => {
    sim.control.addFault({ target: 'github', method: 'GET', path: '/pulls', kind: 'stall' });
    await abandonStalledCall('GET', '/pulls');
    expect((await github('GET', '/pulls')).status).toBe(200);
  });
});
