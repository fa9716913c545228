import { CacheService } from '@backstage/backend-plugin-api';
import {
  DigestAge,
  ProductRef,
  ReleaseTimeline,
  bottomOrderSettled,
  judgeDigestAge,
  partialTimeline,
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

/**
 * A Release record's whole timeline where the plugin keeps it itself (the
 * delivery-metrics timelines), at no GitHub read; undefined where it does
 * not hold all of it.
 */
export interface RecordedTimelines {
  /**
   * A Release record's whole timeline as the plugin keeps it; where it keeps
   * none yet, the one `readWhole` reads from git, kept from then on.
   * Undefined, with nothing read, where nothing can be kept.
   */
  timeline(product: ProductRef, stage: string, readWhole: () => Promise<ReleaseTimeline>): Promise<ReleaseTimeline | undefined>;
}

/**
 * Judges digest age (see judgeDigestAge) from the Release records' history,
 * for the ladder and the auto-promoter: the bottom rung's from `recorded`
 * where it holds it, else from git.
 */
export class DigestAges implements DigestAgeJudge {
  constructor(
    private readonly options: {
      stages: string[];
      timelines: ReleaseTimelines;
      recorded?: RecordedTimelines;
      cache: CacheService;
    },
  ) {}

  /**
   * Each stage's history is read at most once per call, and only with `readHistory`; the bottom
   * rung's only as far back as the questions not judged before need.
   */
  async judge(
    product: ProductRef,
    questions: DigestAgeQuestion[],
    options: { readHistory: boolean },
  ): Promise<Array<DigestAge | undefined>> {
    const bottomStage = this.options.stages[0];
    const { cache, timelines } = this.options;
    const keyOf = ({ toStage, service, candidate, current }: DigestAgeQuestion) =>
      `digest-age:${product.team}/${product.product}:${toStage}:${service}:${candidate}:${current}`;
    const cached = await Promise.all(questions.map(question => cache.get<DigestAge>(keyOf(question))));
    if (!options.readHistory) return cached;
    const unjudged = questions.filter((_, i) => !cached[i]);
    // The bottom rung's history as recorded; else read whole from git once and recorded from then
    // on; else (nothing recorded yet) from its oldest end, until every question's order is told.
    const { recorded } = this.options;
    let bottomRead: Promise<ReleaseTimeline> | undefined;
    const readBottom = async () =>
      (await recorded?.timeline(product, bottomStage, () => timelines.timeline(product, bottomStage))) ??
      partialTimeline(
        await timelines.timelineUntil(product, bottomStage, read =>
          unjudged.every(question => bottomOrderSettled(read, question)),
        ),
      );
    const bottomTimeline = () => (bottomRead ??= readBottom());
    const read = new Map<string, Promise<ReleaseTimeline>>();
    const timeline = (stage: string) => {
      if (!read.has(stage)) read.set(stage, timelines.timeline(product, stage));
      return read.get(stage)!;
    };
    return Promise.all(
      questions.map(async (question, i) => {
        if (cached[i]) return cached[i];
        const { toStage, service, candidate, current } = question;
        const ask = (target: ReleaseTimeline, bottom: ReleaseTimeline) =>
          judgeDigestAge({ service, candidate, current, target, bottom, targetStage: toStage, bottomStage });
        // The bottom rung mostly answers alone; the target's history is read only when it cannot.
        const bottom = await bottomTimeline();
        let age = ask([], bottom);
        if (age.age === 'unknown') age = ask(await timeline(toStage), bottom);
        await cache.set(keyOf(question), age, {
          ttl: age.age === 'unknown' ? UNKNOWN_TTL_MS : KNOWN_TTL_MS,
        });
        return age;
      }),
    );
  }
}
