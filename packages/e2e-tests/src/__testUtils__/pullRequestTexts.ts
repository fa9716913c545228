import { RunningStack } from './stack';

/** What people read on a pull request in the simulated GitHub: its body, then its comments. */
export async function pullRequestTexts(stack: RunningStack, number: number): Promise<string[]> {
  const { owner, repo } = stack.sim.options;
  const headers = { authorization: `token ${stack.sim.tokens.github}`, accept: 'application/vnd.github+json' };
  const read = async (route: string) => {
    const response = await fetch(`${stack.sim.githubApiUrl}/repos/${owner}/${repo}${route}`, { headers });
    if (!response.ok) throw new Error(`GET ${route} answered ${response.status}: ${await response.text()}`);
    return response.json();
  };
  const pr: { body: string | null } = await read(`/pulls/${number}`);
  const comments: { body: string }[] = await read(`/issues/${number}/comments?per_page=100`);
  return [pr.body ?? '', ...comments.map(comment => comment.body)];
}

/** Entity refs where people should read names. */
export const ENTITY_REF = /(user|group):default\//;
