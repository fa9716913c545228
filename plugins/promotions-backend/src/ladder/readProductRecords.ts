import { ProductRef } from '@refplat/plugin-promotions-common';
import { PromotionsConfig } from '../config';
import type { PlatformRepoFiles, RepoFileIndex } from '@refplat/plugin-promotions-node';
import { parseEnvironment, parseRelease } from '../releases/records';

export interface StageRecords {
  name: string;
  release: {
    path: string;
    services: Record<string, string>;
    sources: Record<string, { repository: string; revision: string }>;
    summary: { path: string; blobSha?: string; error?: string };
  };
  environment: {
    path: string;
    services: string[];
    summary: { path: string; declaredServices: string[]; error?: string };
  };
}

export interface ProductRecords {
  /** False when the repo has no file at all for the Product. */
  exists: boolean;
  stages: StageRecords[];
  /** Every service named anywhere, lowest stage first, in file order. */
  services: string[];
}

export function releasePath(config: PromotionsConfig, product: ProductRef, stage: string) {
  return `${config.releasesPath}/${product.team}/${product.product}/${stage}.yaml`;
}

export function environmentPath(config: PromotionsConfig, product: ProductRef, stage: string) {
  return `${config.environmentsPath}/${product.team}/${product.product}/${stage}.yaml`;
}

/** The blobs of a Product's Release records and Environments in an index: the files its ladder reads. */
export function productFileBlobs(config: PromotionsConfig, index: RepoFileIndex, product: ProductRef): string[] {
  return config.stages
    .flatMap(stage => [index[releasePath(config, product, stage)], index[environmentPath(config, product, stage)]])
    .filter((blobSha): blobSha is string => Boolean(blobSha));
}

async function readFile<T>(
  repo: PlatformRepoFiles,
  index: RepoFileIndex,
  path: string,
  what: string,
  parse: (text: string) => T,
): Promise<{ value?: T; error?: string }> {
  const blobSha = index[path];
  if (!blobSha) return { error: `No ${what} at ${path}` };
  let parsed: { value: T } | { problem: string };
  try {
    // A file that does not parse is remembered as such too: its blob will not parse next time either.
    parsed = await repo.readParsedBlob(blobSha, what, text => {
      try {
        return { value: parse(text) };
      } catch (error) {
        return { problem: (error as Error).message };
      }
    });
  } catch (error) {
    return { error: (error as Error).message };
  }
  return 'value' in parsed ? { value: parsed.value } : { error: `${path}: ${parsed.problem}` };
}

/**
 * Per index (one per commit, shared by its readers, and read for this
 * config's two paths): `<team>/<product>` of every file under them.
 */
const productsByIndex = new WeakMap<RepoFileIndex, Set<string>>();

/**
 * The Products with at least one file under `releasesPath` or
 * `environmentsPath` in an index: grouped once per index, not scanned again
 * for each of 10,000 Products.
 */
function productsWithFiles(config: PromotionsConfig, index: RepoFileIndex): Set<string> {
  let products = productsByIndex.get(index);
  if (!products) {
    products = new Set();
    const prefixes = [`${config.releasesPath}/`, `${config.environmentsPath}/`];
    for (const path of Object.keys(index)) {
      const prefix = prefixes.find(p => path.startsWith(p));
      if (!prefix) continue;
      // a file inside the Product's directory: <prefix><team>/<product>/<file…>
      const [team, product, ...file] = path.slice(prefix.length).split('/');
      if (team && product && file.length > 0) products.add(`${team}/${product}`);
    }
    productsByIndex.set(index, products);
  }
  return products;
}

/** Every Product the index has a file for, as the ladder decides existence. */
export function productsAt(config: PromotionsConfig, index: RepoFileIndex): ProductRef[] {
  return [...productsWithFiles(config, index)].map(name => {
    const [team, product] = name.split('/');
    return { team, product };
  });
}

/**
 * Reads a Product's Release records and Environments at one commit. A bad
 * file becomes an error on its stage; the other stages are unaffected.
 */
export async function readProductRecords(
  repo: PlatformRepoFiles,
  config: PromotionsConfig,
  index: RepoFileIndex,
  product: ProductRef,
): Promise<ProductRecords> {
  const exists = productsWithFiles(config, index).has(`${product.team}/${product.product}`);

  const stages = await Promise.all(
    config.stages.map(async (name): Promise<StageRecords> => {
      const relPath = releasePath(config, product, name);
      const envPath = environmentPath(config, product, name);
      const [release, environment] = await Promise.all([
        readFile(repo, index, relPath, 'Release record', parseRelease),
        readFile(repo, index, envPath, 'Environment', parseEnvironment),
      ]);
      const releaseProblems = [
        release.error,
        ...(release.value?.problems ?? []),
      ].filter(Boolean);
      const environmentProblems = [
        environment.error,
        ...(environment.value?.problems ?? []),
      ].filter(Boolean);
      const declared = environment.value?.services ?? [];
      return {
        name,
        release: {
          path: relPath,
          services: release.value?.services ?? {},
          sources: release.value?.sources ?? {},
          summary: {
            path: relPath,
            blobSha: index[relPath],
            error: releaseProblems.length ? releaseProblems.join('; ') : undefined,
          },
        },
        environment: {
          path: envPath,
          services: declared,
          summary: {
            path: envPath,
            declaredServices: declared,
            error: environmentProblems.length
              ? environmentProblems.join('; ')
              : undefined,
          },
        },
      };
    }),
  );

  const services: string[] = [];
  for (const stage of stages) {
    for (const service of [
      ...stage.environment.services,
      ...Object.keys(stage.release.services),
    ]) {
      if (!services.includes(service)) services.push(service);
    }
  }
  return { exists, stages, services };
}
