import { shortDigest } from '../names';

/** A digest for a sentence: `sha256:ddddeeee…` (the ellipsis says it was cut). */
export function shortDigestText(digest: string): string {
  const s = shortDigest(digest);
  return s.length < digest.length ? `${s}…` : s;
}

/** A git revision for a sentence: 7 characters of a commit sha, anything else as it is. */
export function shortRevision(revision: string | undefined): string {
  if (!revision) return '(none)';
  return /^[0-9a-f]{40}$/i.test(revision) ? revision.slice(0, 7) : revision;
}
