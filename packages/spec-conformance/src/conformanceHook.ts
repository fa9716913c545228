/**
 * A jest setupFilesAfterEnv hook: records the traffic between the product
 * and the platform simulator during one test file and stores it in the
 * run's folder; runTeardown.ts checks all of the run's recordings at once
 * (README.md). Wired into plugins/promotions-backend's jest config.
 */
import path from 'node:path';
import { startRecording } from './recorder';
import { currentRun, writeRecording } from './recordings';

const testFile = path.basename(expect.getState().testPath ?? 'unknown');
const suite = testFile.replace(/\.test\.[cm]?[jt]sx?$/, '');
const recording = startRecording(suite);

afterAll(() => {
  recording.stop();
  if (!recording.exchanges.length) return;
  writeRecording(currentRun(), { suite, testFile, recordedAt: new Date().toISOString(), exchanges: recording.exchanges });
});
