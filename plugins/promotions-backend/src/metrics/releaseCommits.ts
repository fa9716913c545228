import { ProductRef, parseProductRef } from '@refplat/plugin-promotions-common';

/** `<releasesPath>/<team>/<product>/<stage>.yaml` → its Product and stage; undefined for any other path. */
export function releaseFileOf(
  path: string,
  releasesPath: string,
  stages: string[],
): { product: ProductRef; stage: string } | undefined {
  if (!path.startsWith(`${releasesPath}/`)) return undefined;
  const parts = path.slice(releasesPath.length + 1).split('/');
  if (parts.length !== 3 || !parts[2].endsWith('.yaml')) return undefined;
  const product = parseProductRef(`${parts[0]}/${parts[1]}`);
  const stage = parts[2].slice(0, -'.yaml'.length);
  return product && stages.includes(stage) ? { product, stage } : undefined;
}

/**
 * The PR a commit on the branch merged, from GitHub's default merge commit
 * titles: `<PR title> (#12)` for a squash, `Merge pull request #12 from …`
 * for a merge commit. Undefined for a direct push.
 */
export function pullRequestOfCommit(message: string): number | undefined {
  const title = message.split('\n')[0];
  const match = title.match(/\(#(\d+)\)\s*$/) ?? title.match(/^Merge pull request #(\d+) /);
  return match ? Number(match[1]) : undefined;
}
