import { openingCrashSuite } from '../__apiTests__/openingCrash.process.suite';
import { signalsReplicasSuite } from '../__apiTests__/signalsReplicas.process.suite';
import { warmReplicasSuite } from '../__apiTests__/warmReplicas.process.suite';
import { restartSuite } from '../__apiTests__/restart.api.suite';
import { replicasSuite } from '../__apiTests__/replicas.api.suite';

/**
 * Backends that stop, crash and run side by side: a replica killed while it
 * opens a PR, signals and a shared cache between replicas as OS processes on
 * PostgreSQL (and Redis), a backend restarted on its in-memory database, and
 * replicas behind a load balancer (issue 24: one test file and one simulator
 * where there were five). The suites ask sharedSim for FAST_SIM_TIMINGS, each
 * stopping its processes and backends when it ends; a test that changes the
 * platform works on a Product of its own.
 * The suites needing PostgreSQL (or Redis) say they are skipped when it does
 * not answer.
 *
 * The suites that read the platform as a whole have a simulator of their
 * own: the crash suite (its kill points are the simulator's next call of a
 * kind, whoever makes it, and a surviving Gate would adopt another suite's
 * open PR and label it) and the warm-cache suite (it counts every GitHub
 * request its views cause). So the suites hold in any order; here they run
 * in the reverse of the order they once needed (issue 46).
 */

// The process suites wait for OS processes on a busy machine; the longest the suites had.
jest.setTimeout(300_000);

replicasSuite();
restartSuite();
warmReplicasSuite();
signalsReplicasSuite();
openingCrashSuite();
