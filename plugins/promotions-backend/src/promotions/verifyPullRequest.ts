import { PromotionsConfig } from '../config';
import { PromotionRecord } from '../database/PromotionStore';
import type { PlatformRepo, PlatformRepoFiles } from '@refplat/plugin-promotions-node';
import { gitBlobSha } from '../github/repoTarball';
import { releasePath } from '../ladder/readProductRecords';
import { setReleaseDigests } from '../releases/editRelease';
import { releaseAtRevision } from './releaseAtRevision';
import { ReleaseChangeVerdict, judgeReleaseChange } from './releaseChange';

/** The target Release on the base branch: from the snapshot `files` reads when given, else one read. */
async function baseRelease(
  deps: { config: PromotionsConfig; writer: PlatformRepo; files?: PlatformRepoFiles },
  path: string,
): Promise<{ text: string; blobSha: string }> {
  // Fresh: right before a merge, the branch as it is now (free while unchanged).
  const revision = deps.files ? await deps.files.headCommit({ fresh: true }) : deps.config.platformRepo.branch;
  return releaseAtRevision(deps, path, revision);
}

function baseMoved(promotion: PromotionRecord): ReleaseChangeVerdict {
  return {
    verified: false,
    reason: `${promotion.toStage}'s Release record changed on the base branch after this PR was opened; request the promotion again`,
  };
}

/** The text the plugin writes for the promotion onto `baseText`; undefined when it cannot. */
export function expectedText(baseText: string, services: Record<string, string>): string | undefined {
  try {
    return setReleaseDigests(baseText, services);
  } catch {
    return undefined;
  }
}

/**
 * Reads what a PR head would merge — the files it changes, the target
 * Release at that head and on the base branch — and judges it against the
 * promotion. Pinned to `headSha`: merging with that sha merges exactly this.
 *
 * With `files` (the ladder's snapshot reader) the base Release comes from
 * the snapshot, and a head whose Release blob is the one the plugin would
 * write is verified by that blob's sha from the comparison: one GitHub read
 * (the compare) where there were three. Anything else reads the head's
 * Release to say what differs.
 */
export async function verifyPullRequest(
  deps: { config: PromotionsConfig; writer: PlatformRepo; files?: PlatformRepoFiles },
  promotion: PromotionRecord,
  headSha: string,
): Promise<ReleaseChangeVerdict> {
  const { config, writer } = deps;
  const path = releasePath(config, promotion, promotion.toStage);
  const [changedFiles, base] = await Promise.all([writer.changedFiles(headSha), baseRelease(deps, path)]);
  if (promotion.baseBlobSha && base.blobSha !== promotion.baseBlobSha) return baseMoved(promotion);
  const expected = expectedText(base.text, promotion.services);
  const [only] = changedFiles;
  if (changedFiles.length === 1 && only.filename === path && expected !== undefined && only.blobSha === gitBlobSha(Buffer.from(expected))) {
    return { verified: true };
  }
  const head = await writer.readFileIfPresent(path, headSha);
  return judgeReleaseChange({
    path,
    changedFiles,
    baseText: base.text,
    headText: head?.text,
    services: promotion.services,
  });
}

/**
 * Right before a merge. A head the plugin wrote or has verified (the
 * promotion's `headSha`) holds exactly the requested change: a commit's sha
 * fixes its content. Only the base branch can have moved since, so only the
 * target Release on it is read, from the snapshot (free while the branch is
 * unchanged): GitHub's compare is not asked again. Any other head, or a
 * promotion recorded without its base blob, is verified whole.
 *
 * What this no longer catches: a force-push that rewrites the base's history
 * under the PR (its diff would then carry more than the one file) while
 * leaving the target Release as it was: GitHub would merge the PR's whole
 * diff. Protected base branches refuse force pushes; the compare this saves
 * is one GitHub read per merge.
 */
export async function verifyBeforeMerge(
  deps: { config: PromotionsConfig; writer: PlatformRepo; files?: PlatformRepoFiles },
  promotion: PromotionRecord,
  headSha: string,
): Promise<ReleaseChangeVerdict> {
  if (headSha !== promotion.headSha || !promotion.baseBlobSha) return verifyPullRequest(deps, promotion, headSha);
  const base = await baseRelease(deps, releasePath(deps.config, promotion, promotion.toStage));
  return base.blobSha === promotion.baseBlobSha ? { verified: true } : baseMoved(promotion);
}
