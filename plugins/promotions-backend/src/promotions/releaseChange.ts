import { shortDigest } from '@refplat/plugin-promotions-common';
import { setReleaseDigests } from '../releases/editRelease';
import { parseRelease } from '../releases/records';

export interface ReleaseChangeInput {
  /** The target stage's Release file. */
  path: string;
  /** The files the PR changes: the comparison of the base branch with the PR head. */
  changedFiles: Array<{ filename: string }>;
  /** The Release file on the base branch. */
  baseText: string;
  /** The Release file at the PR head; undefined when the head has no such file. */
  headText: string | undefined;
  /** Service → the digest the promotion was requested (and approved) for. */
  services: Record<string, string>;
}

export type ReleaseChangeVerdict = { verified: true } | { verified: false; reason: string };

function describeDigest(digest: string | undefined): string {
  return digest ? shortDigest(digest) : 'absent';
}

/** Why the head's Release is not the expected one, service by service where possible. */
function explainMismatch(input: ReleaseChangeInput, headText: string): string {
  let head: Record<string, string>;
  let base: Record<string, string>;
  try {
    head = parseRelease(headText).services;
    base = parseRelease(input.baseText).services;
  } catch (error) {
    return `its ${input.path} is not a Release record (${(error as Error).message})`;
  }
  const wrong = Object.entries(input.services)
    .filter(([service, digest]) => head[service] !== digest)
    .map(([service, digest]) => `${service} is ${describeDigest(head[service])}, not the requested ${shortDigest(digest)}`);
  const unrequested = [...new Set([...Object.keys(head), ...Object.keys(base)])]
    .filter(service => !(service in input.services) && head[service] !== base[service])
    .map(service => `${service} changes to ${describeDigest(head[service])}, which nobody requested`);
  const problems = [...wrong, ...unrequested];
  return problems.length > 0
    ? problems.join('; ')
    : `it changes lines of ${input.path} other than the requested digests`;
}

/**
 * Is the PR's change exactly the promotion that was requested: one file, the
 * target Release, differing from the base only in the requested digest
 * lines? The expected file is what the plugin itself writes from the base
 * (setReleaseDigests changes only those lines), so anything else — a
 * different digest, another service, a comment, another file — fails.
 */
export function judgeReleaseChange(input: ReleaseChangeInput): ReleaseChangeVerdict {
  const others = input.changedFiles.map(file => file.filename).filter(name => name !== input.path);
  if (others.length > 0) {
    return { verified: false, reason: `it changes ${others.join(', ')}; a promotion changes only ${input.path}` };
  }
  if (input.headText === undefined) {
    return { verified: false, reason: `its head has no ${input.path}` };
  }
  let expected: string;
  try {
    expected = setReleaseDigests(input.baseText, input.services);
  } catch (error) {
    return { verified: false, reason: `the base ${input.path} cannot take the requested digests (${(error as Error).message})` };
  }
  if (input.headText === expected) return { verified: true };
  return { verified: false, reason: explainMismatch(input, input.headText) };
}
