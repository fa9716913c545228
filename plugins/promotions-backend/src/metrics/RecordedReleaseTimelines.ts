import { LoggerService } from '@backstage/backend-plugin-api';
import { ProductRef, recordedTimeline, ReleaseTimeline } from '@refplat/plugin-promotions-common';
import type { PlatformRepoFiles } from '@refplat/plugin-promotions-node';
import type { RecordedTimelines } from '../promotions/DigestAges';
import type { DigestTimelineReader } from './DigestTimelineReader';
import type { DigestTimelineStore } from './DigestTimelineStore';

/**
 * The digest-age rule's history of a Release record from the delivery-metrics
 * timelines, which read every commit of the branch anyway: for a record
 * created since they began, and read without a gap since, the first arrival
 * of each digest is there, and the rule reads no history from GitHub (a
 * commit list and a version a read each). The timelines must have read the
 * ladder's head: behind it, they first catch up (the commits the metrics
 * task would read within its minute, shared with it); where they still
 * cannot answer, or before their first reading, the rule reads git as before.
 */
export class RecordedReleaseTimelines implements RecordedTimelines {
  constructor(
    private readonly options: {
      files: Pick<PlatformRepoFiles, 'headCommit'>;
      timelineReader: Pick<DigestTimelineReader, 'readNewCommits' | 'branch'>;
      store: Pick<DigestTimelineStore, 'recordedHistory'>;
      logger: LoggerService;
    },
  ) {}

  async timeline(product: ProductRef, stage: string): Promise<ReleaseTimeline | undefined> {
    const { files, timelineReader, store, logger } = this.options;
    const head = await files.headCommit();
    let history = await store.recordedHistory(timelineReader.branch, product, stage);
    // Never read: the first backfill (up to backfillCommits reads) is the metrics task's, not a run's.
    if (!history) return undefined;
    if (history.cursor !== head) {
      try {
        await timelineReader.readNewCommits();
      } catch (error) {
        logger.warn(`Digest age of ${product.team}/${product.product}: the delivery-metrics history could not catch up (${error}); reading git`);
        return undefined;
      }
      history = await store.recordedHistory(timelineReader.branch, product, stage);
    }
    return history?.cursor === head ? recordedTimeline(history.arrivals) : undefined;
  }
}
