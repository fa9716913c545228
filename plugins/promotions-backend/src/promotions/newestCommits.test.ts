import { COMPARE_PAGE_SIZE, ComparisonPage, newestCommits } from './newestCommits';

const range = { repository: 'acme/storefront', base: 'b'.repeat(40), head: 'a'.repeat(40) };
const compareUrl = `https://github.com/acme/storefront/compare/${range.base}...${range.head}`;

/**
 * GitHub's comparison of a range of `total` commits as the API pages it:
 * oldest first, COMPARE_PAGE_SIZE a page, `total_commits` on every page.
 * Records which pages were read.
 */
function githubComparison(total: number) {
  const shas = Array.from({ length: total }, (_, i) => `${String(i + 1).padStart(4, '0')}${'c'.repeat(36)}`);
  const pagesRead: number[] = [];
  const readPage = async (page: number): Promise<ComparisonPage> => {
    pagesRead.push(page);
    return {
      html_url: compareUrl,
      total_commits: total,
      commits: shas.slice((page - 1) * COMPARE_PAGE_SIZE, page * COMPARE_PAGE_SIZE).map((sha, i) => ({
        sha,
        html_url: `https://github.com/acme/storefront/commit/${sha}`,
        author: i % 2 ? { login: 'alice' } : null,
        commit: { message: `Change ${sha.slice(0, 4)}\n\nWhy it changed.`, author: { name: 'Bob Builder' } },
      })),
    };
  };
  return { shas, pagesRead, readPage };
}

describe('newestCommits', () => {
  it.each([
    // total commits, pages read
    [0, [1]],
    [3, [1]],
    [55, [1]],
    [100, [1]],
    [101, [1, 2]],
    [150, [1, 2]],
    [230, [1, 2, 3]],
    [300, [1, 3]],
  ])('of %p commits lists the newest 50, newest first, reading pages %p', async (total, pages) => {
    const github = githubComparison(total);
    const result = await newestCommits(github.readPage, range);
    const expected = github.shas.slice(-50).reverse();
    expect(result.commits?.map(c => c.sha)).toEqual(expected);
    expect(result.omittedCommits).toBe(total > 50 ? total - 50 : undefined);
    expect(result.compareUrl).toBe(compareUrl);
    expect(github.pagesRead.sort((a, b) => a - b)).toEqual(pages);
  });

  it('keeps the first line of each message, the GitHub login or else the git author', async () => {
    const github = githubComparison(2);
    const result = await newestCommits(github.readPage, range);
    expect(result.commits).toEqual([
      {
        sha: github.shas[1],
        message: 'Change 0002',
        author: 'alice',
        url: `https://github.com/acme/storefront/commit/${github.shas[1]}`,
      },
      {
        sha: github.shas[0],
        message: 'Change 0001',
        author: 'Bob Builder',
        url: `https://github.com/acme/storefront/commit/${github.shas[0]}`,
      },
    ]);
  });

  it("says when older commits are left out, and that GitHub's compare page shows only 250", async () => {
    expect((await newestCommits(githubComparison(50).readPage, range)).note).toBeUndefined();
    expect((await newestCommits(githubComparison(250).readPage, range)).note).toBe(
      "The newest 50 of 250 commits are listed; GitHub's comparison shows all 250",
    );
    expect((await newestCommits(githubComparison(251).readPage, range)).note).toBe(
      `The newest 50 of 251 commits are listed; GitHub's compare page shows only the newest 250, and \`git log ${range.base}..${range.head}\` in acme/storefront lists them all`,
    );
  });
});
