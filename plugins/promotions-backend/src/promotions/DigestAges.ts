import { CacheService } from '@backstage/backend-plugin-api';
import {
  DigestAge,
  ProductRef,
  ReleaseTimeline,
  judgeDigestAge,
} from '@refplat/plugin-promotions-common';
import { ReleaseTimelines } from './StageHistory';

/** A digest offered from the stage below `toStage`, against the one `toStage` releases. */
export interface DigestAgeQuestion {
  toStage: string;
  service: string;
  candidate: string;
  current: string;
}

/**
 * Which digest is older is a fact of history: once both have reached the
 * bottom rung, their order never changes. So a judgement is kept for a day,
 * and a ladder view asks GitHub for history only when a new pair of digests
 * meets. An unknown answer (history too short) is asked again sooner.
 */
const KNOWN_TTL_MS = 24 * 60 * 60 * 1000;
const UNKNOWN_TTL_MS = 10 * 60 * 1000;

/** Which of two digests is older; the ladder's port to the Release records' history. */
export interface DigestAgeJudge {
  /**
   * One answer per question, in order. Without `readHistory` only what was
   * judged before is answered (undefined otherwise), with no upstream call.
   */
  judge(
    product: ProductRef,
    questions: DigestAgeQuestion[],
    options: { readHistory: boolean },
  ): Promise<Array<DigestAge | undefined>>;
}

/** Judges digest age (see judgeDigestAge) from the Release records' git history, for the ladder and the auto-promoter. */
export class DigestAges implements DigestAgeJudge {
  constructor(
    private readonly options: {
      stages: string[];
      timelines: ReleaseTimelines;
      cache: CacheService;
    },
  ) {}

  /** Each stage's history is read at most once per call, and only with `readHistory`. */
  async judge(
    product: ProductRef,
    questions: DigestAgeQuestion[],
    options: { readHistory: boolean },
  ): Promise<Array<DigestAge | undefined>> {
    const bottomStage = this.options.stages[0];
    const read = new Map<string, Promise<ReleaseTimeline>>();
    const timeline = (stage: string) => {
      if (!read.has(stage)) read.set(stage, this.options.timelines.timeline(product, stage));
      return read.get(stage)!;
    };
    return Promise.all(
      questions.map(async question => {
        const { toStage, service, candidate, current } = question;
        const key = `digest-age:${product.team}/${product.product}:${toStage}:${service}:${candidate}:${current}`;
        const cached = await this.options.cache.get<DigestAge>(key);
        if (cached || !options.readHistory) return cached;
        const ask = (target: ReleaseTimeline, bottom: ReleaseTimeline) =>
          judgeDigestAge({ service, candidate, current, target, bottom, targetStage: toStage, bottomStage });
        // The bottom rung mostly answers alone; the target's history is read only when it cannot.
        const bottom = await timeline(bottomStage);
        let age = ask([], bottom);
        if (age.age === 'unknown') age = ask(await timeline(toStage), bottom);
        await this.options.cache.set(key, age, {
          ttl: age.age === 'unknown' ? UNKNOWN_TTL_MS : KNOWN_TTL_MS,
        });
        return age;
      }),
    );
  }
}
