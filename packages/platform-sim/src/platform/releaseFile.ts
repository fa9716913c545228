import { isMap, isScalar, parseDocument } from 'yaml';
import { StageKey, stageName } from './layout';

export const PLATFORM_API_VERSION = 'platform.refplat.org/v1beta1';

export interface ReleaseRecord {
  name: string;
  environmentRef: string;
  /** service → digest */
  services: Record<string, string>;
}

/** Renders a Release the way the seed writes it, with comments that later edits must keep. */
export function renderRelease(
  key: StageKey,
  services: Record<string, string>,
): string {
  const name = stageName(key);
  const lines = [
    `# Release record for ${key.team}/${key.product} at stage ${key.stage}.`,
    '# The digests below ARE what runs; change them only through a Release PR.',
    `apiVersion: ${PLATFORM_API_VERSION}`,
    'kind: Release',
    'metadata:',
    `  name: ${name}`,
    'spec:',
    `  environmentRef: ${name}`,
    '  services: # one entry per Service; never a tag, always a digest',
  ];
  for (const [service, digest] of Object.entries(services)) {
    lines.push(`    ${service}:`, `      digest: ${digest}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Parses a Release file; throws with a readable reason when it is not one. */
export function parseRelease(text: string): ReleaseRecord {
  const doc = parseDocument(text);
  if (doc.errors.length > 0)
    throw new Error(`invalid YAML: ${doc.errors[0].message}`);
  const value = doc.toJS() as any;
  if (value?.kind !== 'Release')
    throw new Error(`expected kind Release, got ${value?.kind}`);
  const services: Record<string, string> = {};
  for (const [service, entry] of Object.entries<any>(
    value?.spec?.services ?? {},
  )) {
    if (typeof entry?.digest !== 'string')
      throw new Error(`service ${service} has no digest`);
    services[service] = entry.digest;
  }
  return {
    name: String(value?.metadata?.name ?? ''),
    environmentRef: String(value?.spec?.environmentRef ?? ''),
    services,
  };
}

/**
 * Sets one service's digest, changing only the bytes of that value so that
 * comments, key order and every other line stay exactly as they were.
 * A service not yet listed is appended (formatting of that new entry follows the seed's style).
 */
export function setReleaseDigest(
  text: string,
  service: string,
  digest: string,
): string {
  const doc = parseDocument(text);
  if (doc.errors.length > 0)
    throw new Error(`invalid YAML: ${doc.errors[0].message}`);
  const node = doc.getIn(['spec', 'services', service, 'digest'], true);
  if (isScalar(node) && node.range) {
    const [start, end] = node.range;
    return text.slice(0, start) + digest + text.slice(end);
  }
  const services = doc.getIn(['spec', 'services'], true);
  if (!isMap(services) || !services.range) {
    throw new Error('Release has no spec.services map');
  }
  // Insert after the last service entry; range[1] is where the map's value ends.
  const insertAt = services.range[1];
  const before = text.slice(0, insertAt);
  const separator = before.endsWith('\n') ? '' : '\n';
  const entry = `    ${service}:\n      digest: ${digest}\n`;
  return before + separator + entry + text.slice(insertAt);
}
