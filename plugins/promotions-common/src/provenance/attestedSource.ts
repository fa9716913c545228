import { Provenance } from './types';

/** A source commit in a GitHub repository, as GitHub's compare API names it. @public */
export interface SourceRevision {
  /** `owner/repo` */
  repository: string;
  revision: string;
}

/**
 * The source commit a verified SLSA provenance names (`https://github.com/acme/shop` at
 * `3f2a…`), as `acme/shop`: what "what changed" compares where it exists, before the
 * Release record's own `source`. Nothing for a digest not verified, whose attestation
 * proves nothing, or a source that is not a repository URL.
 *
 * @public
 */
export function attestedSource(provenance: Pick<Provenance, 'state' | 'sourceRepo' | 'sourceCommit'> | undefined): SourceRevision | undefined {
  if (provenance?.state !== 'verified' || !provenance.sourceRepo || !provenance.sourceCommit) return undefined;
  const match = /^https?:\/\/[^/]+\/([^/]+)\/([^/]+?)(?:\.git)?\/?$/.exec(provenance.sourceRepo);
  return match ? { repository: `${match[1]}/${match[2]}`, revision: provenance.sourceCommit } : undefined;
}
