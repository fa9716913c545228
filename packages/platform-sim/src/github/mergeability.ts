/**
 * GitHub computes a pull request's mergeability in a background job, started by
 * the first read after the pull request is created or its head or base moves.
 * Until the job is done that read says `mergeable: null` and
 * `mergeable_state: 'unknown'`; here the job is done by the next read.
 */
export class MergeabilityJobs {
  /** pull number → the head...base pair its job ran for */
  private readonly ranFor = new Map<number, string>();

  /** Whether the result for these heads is ready; when not, starts its job. */
  ready(pullNumber: number, headSha: string, baseSha: string): boolean {
    const heads = `${baseSha}...${headSha}`;
    if (this.ranFor.get(pullNumber) === heads) return true;
    this.ranFor.set(pullNumber, heads);
    return false;
  }
}
