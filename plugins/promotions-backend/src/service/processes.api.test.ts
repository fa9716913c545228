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
 * where there were five). Every suite asks sharedSim for FAST_SIM_TIMINGS, so
 * they run on one simulator, each stopping its processes and backends when it
 * ends; a test that changes the platform works on a Product of its own.
 * The suites needing PostgreSQL (or Redis) say they are skipped when it does
 * not answer.
 *
 * The order matters where a suite reads the platform as a whole: the crash
 * suite first, while no PR is open that its surviving replica's Gate would
 * adopt and call GitHub about (its kill points are the simulator's next call
 * of a kind, whoever makes it); the warm-cache suite, which counts every
 * GitHub request its views cause, while no Gate runs; the replicas last, as
 * they leave their Products' PRs open.
 */

// The process suites wait for OS processes on a busy machine; the longest the suites had.
jest.setTimeout(300_000);

openingCrashSuite();
signalsReplicasSuite();
warmReplicasSuite();
restartSuite();
replicasSuite();
