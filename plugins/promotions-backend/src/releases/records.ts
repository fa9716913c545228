import { parseDocument } from 'yaml';
import { isValidDigest, isValidName } from '@refplat/plugin-promotions-common';

export const RECORD_API_VERSION = 'platform.refplat.org/v1beta1';

export interface ReleaseRecord {
  name?: string;
  environmentRef?: string;
  /** Service → digest, for the services whose digest is valid. */
  services: Record<string, string>;
  /**
   * Service → the source commit its digest was built from, when CI recorded
   * it (`spec.services.<svc>.source: {repository: owner/repo, revision: sha}`,
   * e.g. from the image's org.opencontainers.image.revision label).
   */
  sources: Record<string, { repository: string; revision: string }>;
  /** What is wrong with the file; the valid parts above still count. */
  problems: string[];
}

export interface EnvironmentRecord {
  name?: string;
  services: string[];
  problems: string[];
}

type Mapping = Record<string, unknown>;

function isMapping(value: unknown): value is Mapping {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseYamlObject(text: string, kind: string): Mapping {
  const document = parseDocument(text);
  if (document.errors.length > 0) {
    throw new Error(`not valid YAML: ${document.errors[0].message.split('\n')[0]}`);
  }
  const value = document.toJS();
  if (!isMapping(value)) throw new Error(`not a ${kind} object`);
  if (value.kind !== kind) {
    throw new Error(`kind is ${JSON.stringify(value.kind)}, expected ${kind}`);
  }
  if (value.apiVersion !== RECORD_API_VERSION) {
    throw new Error(
      `apiVersion is ${JSON.stringify(value.apiVersion)}, expected ${RECORD_API_VERSION}`,
    );
  }
  return value;
}

function metadataName(value: Mapping): string | undefined {
  const metadata = value.metadata;
  return isMapping(metadata) && typeof metadata.name === 'string'
    ? metadata.name
    : undefined;
}

/** Parses a `kind: Release` file. Throws only when nothing usable is in it. */
export function parseRelease(text: string): ReleaseRecord {
  const value = parseYamlObject(text, 'Release');
  const spec = isMapping(value.spec) ? value.spec : {};
  const problems: string[] = [];
  const services: Record<string, string> = {};
  const sources: ReleaseRecord['sources'] = {};
  const declared = spec.services ?? {};
  if (!isMapping(declared)) {
    throw new Error('spec.services must be a mapping of service name to {digest}');
  }
  for (const [service, entry] of Object.entries(declared)) {
    const digest = isMapping(entry) ? entry.digest : undefined;
    if (!isValidName(service)) {
      problems.push(`'${service}' is not a valid service name`);
    } else if (!isValidDigest(digest)) {
      problems.push(
        `${service}: digest ${JSON.stringify(digest ?? null)} is not sha256:<64 lowercase hex>`,
      );
    } else {
      services[service] = digest;
      const source = isMapping(entry) && isMapping(entry.source) ? entry.source : undefined;
      if (
        typeof source?.repository === 'string' &&
        /^[\w.-]+\/[\w.-]+$/.test(source.repository) &&
        typeof source.revision === 'string' &&
        /^[0-9a-f]{7,40}$/.test(source.revision)
      ) {
        sources[service] = { repository: source.repository, revision: source.revision };
      }
    }
  }
  return {
    name: metadataName(value),
    environmentRef:
      typeof spec.environmentRef === 'string' ? spec.environmentRef : undefined,
    services,
    sources,
    problems,
  };
}

/** Parses a `kind: Environment` file: which services the stage runs. */
export function parseEnvironment(text: string): EnvironmentRecord {
  const value = parseYamlObject(text, 'Environment');
  const spec = isMapping(value.spec) ? value.spec : {};
  const entries = spec.services ?? [];
  if (!Array.isArray(entries)) {
    throw new Error('spec.services must be a list of {name}');
  }
  const problems: string[] = [];
  const services: string[] = [];
  for (const entry of entries) {
    const name = isMapping(entry) ? entry.name : entry;
    if (isValidName(name)) services.push(name);
    else problems.push(`${JSON.stringify(name)} is not a valid service name`);
  }
  return { name: metadataName(value), services, problems };
}
