import { LoggerService } from '@backstage/backend-plugin-api';
import { Clock, PlatformRepoRateLimitedError, PlatformRepoUnansweredError } from '@refplat/plugin-promotions-node';
import type { PlatformRepo, PlatformRepoFiles, PullRequestInfo } from '@refplat/plugin-promotions-node';
import { PromotionsConfig } from '../config';
import { PromotionRecord, PromotionStore } from '../database/PromotionStore';
import { releasePath } from '../ladder/readProductRecords';
import { setReleaseDigests } from '../releases/editRelease';
import { ActorNames } from '../service/ActorNames';
import { FLEET_BODY_MAX_CHARS, fleetPullRequestBody, fleetPullRequestTitle } from './fleetPullRequestText';
import { applyLifecycleEvent } from './PromotionLifecycle';
import { releaseAtRevision } from './releaseAtRevision';
import { deleteBranchOrLeaveIt } from './mergeSettlement';
import { openingLeaseFromNow } from './openingLease';

/**
 * Opens one Release PR for several Products climbing the same rung (fleet
 * mode): one commit through the git data API writes every Release file, so
 * the PR costs the same handful of GitHub writes for 50 Products as for one.
 * Each Product keeps its own promotion record, history and Release file; the
 * FleetGate judges each before the shared merge.
 */
export class FleetOpener {
  constructor(
    private readonly options: {
      config: PromotionsConfig;
      store: PromotionStore;
      writer: PlatformRepo;
      files: PlatformRepoFiles;
      names: ActorNames;
      logger: LoggerService;
      entityUrl?: (product: { team: string; product: string }) => string;
      clock?: Clock;
    },
  ) {}

  /**
   * Takes the queued promotions onto `branch` with a lease each (compare-and-set: another
   * opener may take one first); answers those it took.
   */
  async take(records: PromotionRecord[], branch: string): Promise<PromotionRecord[]> {
    const lease = openingLeaseFromNow(this.options);
    const taken = await Promise.all(
      records.map(record =>
        applyLifecycleEvent(this.options.store, record.id, 'taken-from-queue', {
          changes: { queuedAt: undefined, leaseExpiresAt: lease, branch },
        }),
      ),
    );
    return taken.filter((record): record is PromotionRecord => record !== undefined);
  }

  /**
   * The branch (one commit for every member's Release file), the PR, then each member's
   * record. A member that ended meanwhile is not recorded; its file is the FleetGate's to
   * take out. GitHub's rate limit is the caller's (it queues them again); a write GitHub
   * did not answer leaves them to the reconciler, as a single PR's opening does.
   */
  async open(members: PromotionRecord[], baseRevision: string): Promise<{ promotions: PromotionRecord[]; pullRequest: PullRequestInfo }> {
    const { config, writer, names } = this.options;
    const branch = members[0].branch!;
    try {
      const nameOf = await names.namesOf([...new Set(members.map(member => member.requestedBy))]);
      const files = await Promise.all(
        members.map(async member => {
          const path = releasePath(config, member, member.toStage);
          const current = await releaseAtRevision(this.options, path, baseRevision);
          return { path, text: setReleaseDigests(current.text, member.services) };
        }),
      );
      const texts = members.map(member => ({
        ...member,
        previous: member.previousServices ?? {},
        nameOf,
        entityUrl: this.options.entityUrl?.(member),
      }));
      const body = fleetPullRequestBody(texts);
      if (body.length > FLEET_BODY_MAX_CHARS) {
        throw new Error(`its description would be ${body.length} characters, more than GitHub takes; lower promotions.autoPromote.fleet.maxProducts`);
      }
      const title = fleetPullRequestTitle(members);
      const headSha = await writer.commitFiles({
        branch,
        parent: baseRevision,
        files,
        message: `${title}\n\n${members.map(m => `- ${m.team}/${m.product}`).join('\n')}\n\nRequested by the auto-promoter (fleet mode).`,
        createBranch: true,
      });
      if (!(await this.renewLeases(members))) throw new Error('its promotions ended while it was being committed (their opening leases ran out, or each was superseded)');
      const pullRequest = await writer.openPullRequest({ branch, title, body });
      const recorded = await Promise.all(
        members.map(member =>
          applyLifecycleEvent(this.options.store, member.id, 'pull-request-opened', {
            changes: { pullRequest: { number: pullRequest.number, url: pullRequest.url }, branch, headSha, leaseExpiresAt: undefined },
            audit: { type: 'pr-opened', actor: member.requestedBy, detail: `${pullRequest.url} (fleet PR of ${members.length} Products)` },
          }),
        ),
      );
      return { promotions: recorded.filter((record): record is PromotionRecord => record !== undefined), pullRequest };
    } catch (error) {
      if (error instanceof PlatformRepoRateLimitedError || error instanceof PlatformRepoUnansweredError) throw error;
      const reason = `Could not open the fleet Release PR: ${(error as Error).message}`;
      this.options.logger.warn(`Fleet of ${members.length} promotions into ${members[0].toStage}: ${reason}`);
      for (const member of members) {
        await applyLifecycleEvent(this.options.store, member.id, 'opening-failed', {
          changes: { statusReason: reason },
          audit: { type: 'failed', actor: 'promotions', detail: reason },
        });
      }
      await deleteBranchOrLeaveIt(this.options, branch);
      throw error;
    }
  }

  /**
   * The lease runs from now again after the commit: a slow GitHub does not make a working opener
   * look stopped. Answers how many were still being opened; a member that ended meanwhile leaves
   * its file for the FleetGate to take out.
   */
  private async renewLeases(members: PromotionRecord[]): Promise<number> {
    const lease = openingLeaseFromNow(this.options);
    let renewed = 0;
    for (const member of members) {
      if (await applyLifecycleEvent(this.options.store, member.id, 'opening-renewed', { changes: { leaseExpiresAt: lease } })) renewed += 1;
    }
    return renewed;
  }
}
