import express from 'express';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { RunningSim } from '../sim';
import { startTestSim, stopTestSim } from '../__testUtils__/testSim';

/** A receiver standing in for the events backend's HTTP ingress: keeps what it was sent. */
async function startReceiver(status: number) {
  const received: unknown[] = [];
  const app = express().use(express.json());
  app.post('/api/events/http/promotions.incidents', (req, res) => {
    received.push(req.body);
    res.status(status).json({ status: 'accepted' });
  });
  const server = http.createServer(app);
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/events/http/promotions.incidents`;
  return { url, received, close: () => new Promise(resolve => server.close(resolve)) };
}

describe('the simulated incident tool', () => {
  let sim: RunningSim;
  beforeAll(async () => {
    sim = await startTestSim();
  });
  afterAll(() => stopTestSim(sim));

  const post = async (body: object) => {
    const response = await fetch(`${sim.url}/_sim/incidents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };

  it('opens a Product\'s incident once, reports it as the plugin takes incidents, shows its page and resolves it', async () => {
    const receiver = await startReceiver(202);
    sim.incidents.deliverTo(receiver.url);
    try {
      const opened = await post({ product: 'alpha/shop', state: 'open' });
      expect(opened.status).toBe(200);
      const url = `${sim.url}/incidents/${opened.body.incident.id}`;
      expect(opened.body).toEqual({
        incident: expect.objectContaining({ id: expect.stringMatching(/^INC-\d+$/), product: 'alpha/shop', state: 'open', url }),
        delivery: { url: receiver.url, status: 202 },
      });
      // Opening it again answers the open incident: one per Product.
      expect((await post({ product: 'alpha/shop', state: 'open' })).body.incident.id).toBe(opened.body.incident.id);

      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('State: <b data-testid="state">open</b>');

      const resolved = await post({ product: 'alpha/shop', state: 'resolved' });
      expect(resolved.body.incident).toMatchObject({ id: opened.body.incident.id, state: 'resolved' });
      const report = { product: 'alpha/shop', id: opened.body.incident.id, url };
      expect(receiver.received).toEqual([
        { ...report, state: 'open' },
        { ...report, state: 'open' },
        { ...report, state: 'resolved' },
      ]);
      expect((await post({ product: 'alpha/shop', state: 'resolved' })).status).toBe(404);
    } finally {
      sim.incidents.deliverTo(undefined);
      await receiver.close();
    }
  });

  it('answers 502 when the receiver refuses the report, and 400 for a malformed request', async () => {
    const receiver = await startReceiver(404);
    sim.incidents.deliverTo(receiver.url);
    try {
      const refused = await post({ product: 'beta/payments', state: 'open' });
      expect(refused.status).toBe(502);
      expect(refused.body.delivery).toMatchObject({ url: receiver.url, status: 404 });
    } finally {
      sim.incidents.deliverTo(undefined);
      await receiver.close();
    }
    expect((await post({ product: 'shop', state: 'open' })).status).toBe(400);
    expect((await post({ product: 'alpha/shop', state: 'closed' })).status).toBe(400);
    expect((await fetch(`${sim.url}/incidents/INC-999`)).status).toBe(404);
  });
});
