import { LoggerService } from '@backstage/backend-plugin-api';
import { ProductRef, recordedTimeline, ReleaseTimeline } from '@refplat/plugin-promotions-common';
import type { PlatformRepoFiles } from '@refplat/plugin-promotions-node';
import type { RecordedTimelines } from '../promotions/DigestAges';
import type { DigestTimelineReader } from './DigestTimelineReader';
import type { DigestTimelineStore, TimelinePosition } from './DigestTimelineStore';

/**
 * The digest-age rule's history of a Release record from the delivery-metrics
 * timelines, which read every commit of the branch anyway, so that the rule
 * reads no history from GitHub (a commit list and a version a read each):
 * - a record created since they began, and read without a gap since, has
 *   every version there;
 * - an older one has its versions read from git once (`readWhole`), kept as
 *   where its recorded history starts, and its later versions are its arrivals.
 * The timelines must have read the ladder's head: behind it, they first
 * catch up (the commits the metrics task would read within its minute,
 * shared with it); where they still cannot answer, or before their first
 * reading, the rule reads git as before.
 */
export class RecordedReleaseTimelines implements RecordedTimelines {
  constructor(
    private readonly options: {
      files: Pick<PlatformRepoFiles, 'headCommit'>;
      timelineReader: Pick<DigestTimelineReader, 'readNewCommits' | 'branch'>;
      store: Pick<DigestTimelineStore, 'position' | 'arrivalsAfter' | 'baseline' | 'saveBaseline'>;
      logger: LoggerService;
    },
  ) {}

  async timeline(
    product: ProductRef,
    stage: string,
    readWhole: () => Promise<ReleaseTimeline>,
  ): Promise<ReleaseTimeline | undefined> {
    const position = await this.atHead(product);
    if (!position) return undefined;
    const { store, files } = this.options;
    const baseline = await store.baseline(product, stage);
    // A gap in the history read since the baseline leaves its later versions unknown.
    if (baseline && baseline.afterArrivalId >= position.completeAfterId) {
      return recordedTimeline(await store.arrivalsAfter(product, stage, baseline.afterArrivalId), baseline.timeline);
    }
    const recorded = recordedTimeline(await store.arrivalsAfter(product, stage, position.completeAfterId));
    if (recorded) return recorded;
    const timeline = await readWhole();
    // git was read at the same head: the record's versions after it are the arrivals after this position.
    if ((await files.headCommit()) === position.cursor) {
      await store.saveBaseline(product, stage, { afterArrivalId: position.lastArrivalId, timeline });
    }
    return timeline;
  }

  /** Where the timelines stand once they have read the branch head; undefined when they cannot get there. */
  private async atHead(product: ProductRef): Promise<TimelinePosition | undefined> {
    const { files, timelineReader, store, logger } = this.options;
    const head = await files.headCommit();
    let position = await store.position(timelineReader.branch);
    // Never read: the first backfill (up to backfillCommits reads) is the metrics task's, not a run's.
    if (!position) return undefined;
    if (position.cursor !== head) {
      try {
        await timelineReader.readNewCommits();
      } catch (error) {
        logger.warn(`Digest age of ${product.team}/${product.product}: the delivery-metrics history could not catch up (${error}); reading git`);
        return undefined;
      }
      position = await store.position(timelineReader.branch);
    }
    return position?.cursor === head ? position : undefined;
  }
}
