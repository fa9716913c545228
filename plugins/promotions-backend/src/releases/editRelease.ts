import { isMap, isScalar, parseDocument } from 'yaml';
import { parseRelease } from './records';

/**
 * Writes new digests into a Release file's text, changing nothing else:
 * each existing digest scalar is replaced in place at its source offsets,
 * so comments, key order, quoting and the other services stay byte-for-byte.
 * A service the file does not list yet is added through the yaml Document
 * API (which may re-indent; it only happens on a service's first release).
 */
export function setReleaseDigests(
  text: string,
  digests: Record<string, string>,
): string {
  const document = parseDocument(text, { keepSourceTokens: true });
  if (document.errors.length > 0) {
    throw new Error(`Release file is not valid YAML: ${document.errors[0].message}`);
  }
  const replacements: Array<{ start: number; end: number; value: string }> = [];
  const additions: Array<[string, string]> = [];

  for (const [service, digest] of Object.entries(digests)) {
    const node = document.getIn(['spec', 'services', service, 'digest'], true);
    if (isScalar(node) && node.range) {
      const [start, end] = node.range;
      const original = text.slice(start, end);
      const quote = original.startsWith('"') || original.startsWith("'") ? original[0] : '';
      replacements.push({ start, end, value: `${quote}${digest}${quote}` });
    } else {
      additions.push([service, digest]);
    }
  }

  let edited = text;
  for (const { start, end, value } of replacements.sort((a, b) => b.start - a.start)) {
    edited = edited.slice(0, start) + value + edited.slice(end);
  }

  if (additions.length > 0) {
    const withAdditions = parseDocument(edited);
    const services = withAdditions.getIn(['spec', 'services']);
    if (services !== undefined && services !== null && !isMap(services)) {
      throw new Error('spec.services in the Release file is not a mapping');
    }
    for (const [service, digest] of additions) {
      withAdditions.setIn(['spec', 'services', service], { digest });
    }
    edited = withAdditions.toString();
  }

  const check = parseRelease(edited).services;
  for (const [service, digest] of Object.entries(digests)) {
    if (check[service] !== digest) {
      throw new Error(`Editing the Release file did not set ${service} to ${digest}`);
    }
  }
  return edited;
}
