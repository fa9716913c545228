/**
 * Failures that are known, understood and waiting for a fix elsewhere. Each
 * entry matches the key of exactly one finding (as written in
 * test-results/spec-conformance/summary.md) and says what has to change;
 * a matched finding is reported as "known" and does not fail the tests.
 * Remove the entry with the fix: the summary lists entries that no longer
 * match anything.
 */
export interface KnownDeviation {
  matches: RegExp;
  /** What is wrong and the fix it waits for (owner, file). */
  reason: string;
}

export const KNOWN_DEVIATIONS: KnownDeviation[] = [];
