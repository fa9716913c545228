/**
 * GitHub's compare API lists a range's commits oldest first, `perPage` to a
 * page, and says how many there are (`total_commits`). The pages (1-based,
 * ascending) that hold the newest `wanted` of `total` commits: read them,
 * concatenate, and the last `wanted` are the newest. At most two pages when
 * `wanted <= perPage`.
 *
 * @public
 */
export function newestCommitPages(total: number, wanted: number, perPage: number): number[] {
  if (total <= perPage) return [1];
  const firstIndex = Math.max(0, total - wanted);
  const firstPage = Math.floor(firstIndex / perPage) + 1;
  const lastPage = Math.ceil(total / perPage);
  const pages: number[] = [];
  for (let page = firstPage; page <= lastPage; page++) pages.push(page);
  return pages;
}
