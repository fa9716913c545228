import { formatSeconds } from '../../argo/canaryState';
import { argoTimeMillis } from '../../argo/time';
import type { AnalysisRun, AnalysisRunMetricResult, HopEvidence } from './hopEvidence';
import type { HopReading } from './hopTypes';

const RUNNING_PHASES = ['', 'Pending', 'Running'];

/** The run that decides now: a running one, else the newest. */
function currentRun(runs: AnalysisRun[]): AnalysisRun | undefined {
  const started = (run: AnalysisRun) =>
    argoTimeMillis(run.status?.startedAt ?? run.metadata?.creationTimestamp) ?? 0;
  const newestFirst = [...runs].sort((a, b) => started(b) - started(a));
  return newestFirst.find(r => RUNNING_PHASES.includes(r.status?.phase ?? '')) ?? newestFirst[0];
}

/** "web: 3 of 5 measurements, last value 0.97, 0 failed (failure limit 1)". */
function metricText(run: AnalysisRun, result: AnalysisRunMetricResult): string {
  const spec = (run.spec?.metrics ?? run.spec?.analysisSpec?.metrics ?? []).find(
    m => m.name === result.name,
  );
  const taken = result.count ?? result.measurements?.length ?? 0;
  const of = spec?.count !== undefined ? ` of ${spec.count}` : '';
  const last = result.measurements?.[result.measurements.length - 1]?.value;
  const limit = spec?.failureLimit !== undefined ? ` (failure limit ${spec.failureLimit})` : '';
  return `${result.name}: ${taken}${of} measurements${last !== undefined ? `, last value ${last}` : ''}, ${result.failed ?? 0} failed${limit}`;
}

/** What still runs before the Rollout moves on: the canary step's pause, else the stage's soak. */
function timeLeft(evidence: HopEvidence): string {
  const pause = evidence.canary?.pauseRemainingSeconds;
  if (pause !== undefined) return `; the canary's pause still runs ${formatSeconds(pause)}`;
  const soak = evidence.soakRemainingSeconds;
  if (soak !== undefined && soak > 0) return `; the stage's soak still runs ${formatSeconds(soak)}`;
  return '';
}

/**
 * Apply canary → promoted (seed 000: "or the SLO window has not closed"): the row most often
 * misread as a broken pipeline. A run still measuring is waiting, not stuck — reached only when
 * the probes before it did not stall; a Failed, Error or Inconclusive run stalls here.
 */
export function analysisWindowHop(evidence: HopEvidence): HopReading {
  const hop = 'analysis-window' as const;
  const run = currentRun(evidence.analysisRuns ?? []);
  if (!run) return { hop, mark: 'unknown' };
  const name = run.metadata?.name ?? 'the AnalysisRun';
  const results = run.status?.metricResults ?? [];
  const phase = run.status?.phase ?? '';
  const seenAt = run.status?.startedAt;
  if (phase === 'Successful') return { hop, mark: 'completed' };
  if (RUNNING_PHASES.includes(phase)) {
    return {
      hop,
      mark: 'waiting',
      evidence: `Waiting for the analysis window (${results.map(r => metricText(run, r)).join('; ') || 'no measurement yet'}), not stuck${timeLeft(evidence)}`,
      seenAt,
      lookAt: {
        kind: 'kubectl',
        text: `kubectl argo rollouts get rollout ${evidence.workload} -n ${evidence.namespace}`,
      },
    };
  }
  const deciding = results.filter(r => r.phase === phase);
  const why = (deciding.length ? deciding : results).map(r => metricText(run, r)).join('; ');
  const inconclusive = phase === 'Inconclusive' ? ' — a person promotes or aborts the canary' : '';
  return {
    hop,
    mark: 'stalled',
    evidence: `AnalysisRun ${name} is ${phase}: ${why}${run.status?.message ? ` — ${run.status.message}` : ''}${inconclusive}`,
    seenAt,
    lookAt: { kind: 'kubectl', text: `kubectl -n ${evidence.namespace} describe analysisrun ${name}` },
  };
}
