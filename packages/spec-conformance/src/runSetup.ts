/**
 * A jest globalSetup: gives the run a recordings folder of its own, so that
 * nothing an earlier (or a parallel) run recorded is checked with it.
 * Wired into plugins/promotions-backend's jest config with runTeardown.ts.
 */
import { startRun } from './recordings';

export default function runSetup(): void {
  startRun();
}
