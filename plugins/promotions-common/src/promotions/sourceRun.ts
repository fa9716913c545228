import type { HealthVerdict } from '../health/verdict';
import { possessive } from '../names';
import type { LadderStage } from '../ladder/types';

/**
 * How the stage a promotion climbs from stands with the digest it carries
 * for one service. The reasons and verdict come with the states that are not
 * healthy so that each reader phrases them for its audience: a refusal lists
 * every reason, a commit status (140 characters) only the first.
 *
 * @public
 */
export type SourceRun =
  /** The stage names this digest and runs it healthy. */
  | { state: 'runs-healthy' }
  /** The stage names another digest now, or (`digest` absent) none. */
  | { state: 'moved-on'; digest?: string }
  /** Not healthy, but nothing has failed for good: progressing, or its health unknown. */
  | { state: 'not-healthy-yet'; verdict: HealthVerdict; reasons: string[] }
  /** A check failed for good (Degraded, aborted, the wrong digest on a settled app). */
  | { state: 'unhealthy'; verdict: 'unhealthy'; reasons: string[] };

/**
 * Does `source` run `service` at `digest`, healthy? The one rule behind a
 * promotion's plan (may it climb?) and the Gate's verdict (may it merge?).
 *
 * @public
 */
export function sourceRun(source: LadderStage, service: string, digest: string): SourceRun {
  const cell = source.services[service];
  if (cell?.digest !== digest) return { state: 'moved-on', digest: cell?.digest };
  if (cell.healthy) return { state: 'runs-healthy' };
  if (cell.verdict === 'unhealthy') return { state: 'unhealthy', verdict: 'unhealthy', reasons: cell.reasons };
  return { state: 'not-healthy-yet', verdict: cell.verdict, reasons: cell.reasons };
}

/**
 * Why a digest may not climb yet from a stage that does not run it healthy,
 * as a person's refusal and the auto-promoter's skip both say it; `detail`
 * is the reason given after a colon, when there is one.
 *
 * @public
 */
export function notHealthyReason(service: string, stage: string, verdict: HealthVerdict, detail?: string): string {
  const why = detail ? `: ${detail}` : '';
  return verdict === 'unknown'
    ? `${possessive(service)} health in ${stage} is unknown${why}`
    : `${service} is not healthy in ${stage}${why}`;
}
