import { ServiceChange, newestCommitPages } from '@refplat/plugin-promotions-common';

/** How many of a range's commits are listed: the newest. */
const SHOWN_COMMITS = 50;
/** GitHub's largest `per_page`: a range of up to 100 commits costs one request. */
export const COMPARE_PAGE_SIZE = 100;
/** GitHub's compare page shows only the newest 250 commits of a larger range. */
const GITHUB_COMPARE_PAGE_LIMIT = 250;

/** The parts of GitHub's commit comparison (one page of it) this reads. */
export interface ComparisonPage {
  html_url: string;
  total_commits: number;
  /** Oldest first. */
  commits: Array<{
    sha: string;
    html_url: string;
    /** The GitHub account, when the commit's email maps to one (`{}` or null when not). */
    author: { login?: string } | null;
    commit: { message: string; author: { name?: string } | null };
  }>;
}

export type NewestCommits = Pick<ServiceChange, 'commits' | 'omittedCommits' | 'compareUrl' | 'note'>;

/**
 * The newest commits between two source revisions, newest first. GitHub
 * lists a comparison oldest first, so page 1 says how many there are and
 * the newest are read from the last page(s): at most three requests.
 */
export async function newestCommits(
  readPage: (page: number) => Promise<ComparisonPage>,
  range: { repository: string; base: string; head: string },
): Promise<NewestCommits> {
  const first = await readPage(1);
  const total = first.total_commits;
  const pages = newestCommitPages(total, SHOWN_COMMITS, COMPARE_PAGE_SIZE);
  const read = await Promise.all(pages.map(page => (page === 1 ? first : readPage(page))));
  const newest = read.flatMap(page => page.commits).slice(-SHOWN_COMMITS).reverse();
  return {
    compareUrl: first.html_url,
    commits: newest.map(commit => ({
      sha: commit.sha,
      message: commit.commit.message.split('\n')[0],
      author: commit.author?.login ?? commit.commit.author?.name ?? 'unknown',
      url: commit.html_url,
    })),
    ...(total > newest.length
      ? { omittedCommits: total - newest.length, note: omittedNote(newest.length, total, range) }
      : {}),
  };
}

/** Says that older commits are left out, and where all of them are listed. */
function omittedNote(
  shown: number,
  total: number,
  range: { repository: string; base: string; head: string },
): string {
  const here = `The newest ${shown} of ${total} commits are listed`;
  if (total <= GITHUB_COMPARE_PAGE_LIMIT) {
    return `${here}; GitHub's comparison shows all ${total}`;
  }
  return `${here}; GitHub's compare page shows only the newest ${GITHUB_COMPARE_PAGE_LIMIT}, and \`git log ${range.base}..${range.head}\` in ${range.repository} lists them all`;
}
