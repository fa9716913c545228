import { mockCredentials } from '@backstage/backend-test-utils';
import knexFactory, { Knex } from 'knex';
import WebSocket from 'ws';
import type { RunningSim } from '@refplat/platform-sim';
import { BackendProcess } from '../__testUtils__/backendProcess';
import {
  createFreshDatabase,
  postgresAnswers,
  POSTGRES_URL,
} from '../__testUtils__/freshPostgres';
import { sharedSim } from '../__testUtils__/sharedSimBackend';
import { eventually, simAddresses } from '../__testUtils__/testBackend';
import { ladderChannel } from '../promotions/PromotionsBroadcaster';

const [describeWithPostgres, where] = postgresAnswers()
  ? [describe, 'on PostgreSQL']
  : [
      describe.skip,
      `skipped: PostgreSQL does not answer at ${new URL(POSTGRES_URL).host}`,
    ];

const PRODUCT = { team: 'alpha', product: 'shop' };
const CHANNEL = ladderChannel(PRODUCT);
const BOB = 'user:default/bob';

/** An open ladder in a browser: the signals WebSocket of one replica, subscribed to the Product's channel. */
class LadderSocket {
  readonly received: Array<{ what: string; at: number }> = [];

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', data => {
      const { channel, message } = JSON.parse(String(data));
      if (channel === CHANNEL)
        this.received.push({ what: message.what, at: Date.now() });
    });
  }

  static async open(replica: BackendProcess): Promise<LadderSocket> {
    const socket = new WebSocket(
      `${replica.url.replace(/^http/, 'ws')}/api/signals`,
      {
        headers: { authorization: `Bearer ${mockCredentials.user.token(BOB)}` },
      },
    );
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    socket.send(JSON.stringify({ action: 'subscribe', channel: CHANNEL }));
    return new LadderSocket(socket);
  }

  /** Waits for the signal `what` and says when it came. */
  async next(what: string): Promise<number> {
    const signal = await eventually(
      async () => this.received.find(s => s.what === what),
      60_000,
    );
    return signal.at;
  }

  close() {
    this.socket.close();
  }
}

/** Signals between replicas (was signalsReplicas.process.test.ts), on the file's simulator. */
export function signalsReplicasSuite() {
  /**
   * Signals between replicas as OS processes on one PostgreSQL database: a
   * change made on replica A reaches a ladder open on replica B. The signals
   * service publishes on the `signals` topic of the events service; the events
   * backend stores the event in PostgreSQL for every other replica's
   * subscription (`signals.<instance id>`) and wakes their long polls with
   * NOTIFY. Without the bus (`events.useEventBus: never`) a signal stays on
   * the replica that made the change.
   */
  describeWithPostgres(
    `signals reach ladders open on other replicas (${where})`,
    () => {
      // The file's simulator. The holds live in the replicas' fresh database, not on the platform, so the seeded alpha/shop serves.
      const shared = sharedSim();
      let sim: RunningSim;
      let database: Awaited<ReturnType<typeof createFreshDatabase>>;
      let eventsDb: Knex;
      const replicas: BackendProcess[] = [];
      const sockets: LadderSocket[] = [];

      const startReplica = async (eventBus: 'auto' | 'never') => {
        const replica = await BackendProcess.start({
          sim: simAddresses(sim),
          database: database.url,
          // No Gate sweeps: the only signals are the holds this test places and lifts.
          gate: { enabled: false },
          eventBus,
        });
        replicas.push(replica);
        return replica;
      };
      // One after the other: replicas migrating a fresh database at the same
      // moment race to create knex's migration lock table.
      const startReplicas = async (eventBus: 'auto' | 'never') => [
        await startReplica(eventBus),
        await startReplica(eventBus),
      ];

      const openLadder = async (replica: BackendProcess) => {
        const socket = await LadderSocket.open(replica);
        sockets.push(socket);
        return socket;
      };

      const holds = `/api/promotions/products/${PRODUCT.team}/${PRODUCT.product}/holds`;
      const asBob = {
        authorization: mockCredentials.user.header(BOB),
        'content-type': 'application/json',
      };
      const placeHold = async (replica: BackendProcess) => {
        const response = await fetch(`${replica.url}${holds}`, {
          method: 'POST',
          headers: asBob,
          body: JSON.stringify({
            stage: 'uat',
            service: 'storefront',
            reason: 'load test',
          }),
        });
        expect(response.status).toBe(201);
      };
      const liftHold = async (replica: BackendProcess) => {
        const response = await fetch(`${replica.url}${holds}/uat/storefront`, {
          method: 'DELETE',
          headers: asBob,
        });
        expect(response.status).toBe(200);
      };

      /** Each replica's signals backend subscribes to the bus once it has started; before that an event finds nobody to keep it for. */
      const signalsSubscriptions = async () =>
        (
          await eventsDb('event_bus_subscriptions').where(
            'id',
            'like',
            'signals.%',
          )
        ).length;

      beforeAll(async () => {
        sim = shared.sim;
        database = await createFreshDatabase();
        eventsDb = knexFactory({
          client: 'pg',
          connection: database.url,
          searchPath: ['events'],
          pool: { min: 0, max: 1 },
        });
      });

      afterEach(async () => {
        sockets.splice(0).forEach(socket => socket.close());
        await Promise.all(replicas.splice(0).map(replica => replica.stop()));
      });

      afterAll(async () => {
        await eventsDb?.destroy();
        await database?.drop();
      });

      it('a hold lifted on replica A reaches a ladder open on replica B', async () => {
        const [a, b] = await startReplicas('auto');
        await eventually(
          async () => ((await signalsSubscriptions()) === 2 ? true : undefined),
          60_000,
        );
        const onB = await openLadder(b);

        // B's own change first: the ladder's subscription is in place on B.
        await placeHold(b);
        await onB.next('hold-placed');

        const lifted = Date.now();
        await liftHold(a);
        const arrived = await onB.next('hold-lifted');
      expect(onB.received.map(s => s.what)).toEqual(['hold-placed', 'hold-lifted']);
        // Reported, not asserted: the bus wakes B's long poll with NOTIFY, no polling interval.
        process.stdout.write(
          `signal from replica A to a ladder on replica B: ${arrived - lifted} ms\n`,
        );
      });

      it('without the bus a signal stays on the replica that made the change', async () => {
        const [a, b] = await startReplicas('never');
        const onA = await openLadder(a);
        const onB = await openLadder(b);

        await placeHold(a);
        // A published it (its own ladder has it) ...
        await onA.next('hold-placed');
        await liftHold(b);
        await onB.next('hold-lifted');
        // ... and B's ladder only ever saw B's own change.
        expect(onB.received.map(s => s.what)).toEqual(['hold-lifted']);
      });
    },
  );
}
