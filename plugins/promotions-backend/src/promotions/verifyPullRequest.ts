import { PromotionsConfig } from '../config';
import { PromotionRecord } from '../database/PromotionStore';
import type { PlatformRepo } from '@refplat/plugin-promotions-node';
import { releasePath } from '../ladder/readProductRecords';
import { ReleaseChangeVerdict, judgeReleaseChange } from './releaseChange';

/**
 * Reads what a PR head would merge — the files it changes, the target
 * Release at that head and on the base branch — and judges it against the
 * promotion. Pinned to `headSha`: merging with that sha merges exactly this.
 */
export async function verifyPullRequest(
  deps: { config: PromotionsConfig; writer: PlatformRepo },
  promotion: PromotionRecord,
  headSha: string,
): Promise<ReleaseChangeVerdict> {
  const { config, writer } = deps;
  const path = releasePath(config, promotion, promotion.toStage);
  const [changedFiles, base, head] = await Promise.all([
    writer.changedFiles(headSha),
    writer.readFile(path, config.platformRepo.branch),
    writer.readFileIfPresent(path, headSha),
  ]);
  if (promotion.baseBlobSha && base.blobSha !== promotion.baseBlobSha) {
    return {
      verified: false,
      reason: `${promotion.toStage}'s Release record changed on the base branch after this PR was opened; request the promotion again`,
    };
  }
  return judgeReleaseChange({
    path,
    changedFiles,
    baseText: base.text,
    headText: head?.text,
    services: promotion.services,
  });
}
