/** Where the platform repository keeps its records (the contract's default prefixes). */
export const RELEASES_DIR = 'gitops/releases';
export const ENVIRONMENTS_DIR = 'gitops/environments';

/** The ladder, bottom to top. */
export const STAGES = ['dev', 'test', 'uat', 'staging', 'prod'] as const;

export interface StageKey {
  team: string;
  product: string;
  stage: string;
}

export function releasePath({ team, product, stage }: StageKey): string {
  return `${RELEASES_DIR}/${team}/${product}/${stage}.yaml`;
}

export function environmentPath({ team, product, stage }: StageKey): string {
  return `${ENVIRONMENTS_DIR}/${team}/${product}/${stage}.yaml`;
}

/** `<team>-<product>-<stage>`: the Application, the Release's metadata.name and the namespace. */
export function stageName({ team, product, stage }: StageKey): string {
  return `${team}-${product}-${stage}`;
}

/** Recognises `<dir>/<team>/<product>/<stage>.yaml`; anything else is not a record. */
export function parseRecordPath(
  dir: string,
  filePath: string,
): StageKey | undefined {
  const match = new RegExp(
    `^${escapeRegExp(dir)}/([^/]+)/([^/]+)/([^/]+)\\.ya?ml$`,
  ).exec(filePath);
  return match
    ? { team: match[1], product: match[2], stage: match[3] }
    : undefined;
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
