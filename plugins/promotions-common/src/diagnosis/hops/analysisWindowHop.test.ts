import { loadFixture } from '../../__testUtils__/fixtures';
import { canary } from '../__testUtils__/diagnosisInput';
import { evidence, runningAnalysis as running } from '../__testUtils__/hopEvidence';
import { analysisWindowHop } from './analysisWindowHop';
import type { AnalysisRun } from './hopEvidence';

const failed = loadFixture<AnalysisRun>('analysisrun-failed-web-metric.yaml');
const successful = loadFixture<AnalysisRun>('analysisrun-successful.yaml');

describe('analysisWindowHop', () => {
  it.each([
    ['a Failed run', [failed], 'stalled'],
    ['a Successful run', [successful], 'completed'],
    ['a run still measuring', [running], 'waiting'],
    ['a running run beside an older failed one', [failed, running], 'waiting'],
    ['no run', [], 'unknown'],
  ])('%s: %s', (_case, analysisRuns, mark) => {
    expect(analysisWindowHop(evidence({ analysisRuns })).mark).toBe(mark);
  });

  it('says which metric failed, its last value and limit', () => {
    expect(analysisWindowHop(evidence({ analysisRuns: [failed] }))).toMatchObject({
      hop: 'analysis-window',
      evidence:
        'AnalysisRun rollout-background-analysis-db976bc44-2 is Failed: web: 1 measurements, last value false, 1 failed — metric "web" assessed Failed due to failed (1) > failureLimit (0)',
      seenAt: '2020-09-22T09:10:04Z',
      lookAt: { text: 'kubectl -n alpha-shop-test describe analysisrun rollout-background-analysis-db976bc44-2' },
    });
  });

  it.each([
    [{ canary: canary({ pauseRemainingSeconds: 420 }) }, "; the canary's pause still runs 7m"],
    [{ soakRemainingSeconds: 1800 }, "; the stage's soak still runs 30m"],
    [{ soakRemainingSeconds: 0 }, ''],
    [{}, ''],
  ])('a window still measuring is not stuck (%j)', (left, said) => {
    expect(analysisWindowHop(evidence({ analysisRuns: [running], ...left }))).toMatchObject({
      evidence: `Waiting for the analysis window (web: 3 of 5 measurements, last value true, 0 failed (failure limit 1)), not stuck${said}`,
      lookAt: { text: 'kubectl argo rollouts get rollout storefront -n alpha-shop-test' },
    });
  });
});
