import { SchedulerServiceTaskScheduleDefinition, SchedulerServiceTaskInvocationDefinition } from '@backstage/backend-plugin-api';
import { asBulkWork } from '../github/WriteBudget';
import { WRITE_QUEUE_TASK } from '../promotions/PromotionQueue';
import { PromotionsParts } from './promotionsRoot';

/** A task the plugin schedules: global (one replica at a time), as every one of ours is. */
export type PromotionsTask = SchedulerServiceTaskScheduleDefinition & SchedulerServiceTaskInvocationDefinition;

/** The plugin's scheduled work, by what its config turns on. */
export function promotionsTasks({ config, ladders, promotions }: PromotionsParts, logger: { warn(message: string): void }) {
  const tasks: PromotionsTask[] = [];
  if (config.gate.enabled) {
    tasks.push({
      id: 'promotions-gate',
      frequency: config.gate.frequency,
      // A replica that dies mid-run holds the task until this runs out:
      // keep it short so another replica takes over within a minute.
      timeout: { minutes: 1 },
      scope: 'global',
      fn: signal => promotions.gate.checkAll(signal),
    });
  }
  // The write queue is in the database: one replica at a time drains it, when the
  // auto-promoter has queued (it triggers this) and every few seconds for what a
  // restarted or stopped replica left, and finishes the openings a stopped replica left.
  tasks.push({
    id: WRITE_QUEUE_TASK,
    frequency: { seconds: 10 },
    // A replica that dies mid-drain holds the task until this runs out; a drain that
    // runs longer stops after the PR in hand and the next run goes on.
    timeout: { minutes: 1 },
    scope: 'global',
    fn: async signal => {
      await promotions.promotionQueue.drain(signal);
      const finished = await promotions.reconciler.finishAbandonedOpenings();
      if (finished) logger.warn(`Finished ${finished} promotion opening(s) whose request stopped before its pull request was recorded`);
    },
  });
  if (config.autoPromote.enabled) {
    tasks.push({
      id: 'promotions-auto-promoter',
      frequency: config.autoPromote.frequency,
      timeout: { minutes: 10 },
      scope: 'global',
      // Bulk work: its GitHub writes wait behind people's for the write budget.
      fn: async () => {
        await asBulkWork(() => promotions.autoPromoter.run());
      },
    });
  }
  if (config.stuckNotifications.enabled) {
    tasks.push({
      id: 'promotions-stuck-notifications',
      frequency: config.stuckNotifications.frequency,
      // Builds every ladder: one replica at a time, and a slow run gives way to the next.
      timeout: { minutes: 10 },
      scope: 'global',
      fn: async () => {
        const { products, failed } = await ladders.stuckSweep.run();
        if (failed) logger.warn(`Stuck sweep: ${failed} of ${products} Products could not be looked at`);
      },
    });
  }
  if (config.metrics.enabled) {
    tasks.push({
      id: 'promotions-delivery-metrics',
      frequency: config.metrics.frequency,
      // One replica reads each commit; a long backfill resumes where it stopped.
      timeout: { minutes: 10 },
      scope: 'global',
      fn: async () => {
        await ladders.timelineReader.readNewCommits();
      },
    });
  }
  return tasks;
}
