import { ProductRef } from '@refplat/plugin-promotions-common';
import { PromotionsConfig } from '../config';
import { PlatformRepoReader, RepoFileIndex } from '../github/PlatformRepoReader';
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

async function readFile<T>(
  repo: PlatformRepoReader,
  index: RepoFileIndex,
  path: string,
  what: string,
  parse: (text: string) => T,
): Promise<{ value?: T; error?: string }> {
  const blobSha = index[path];
  if (!blobSha) return { error: `No ${what} at ${path}` };
  let text: string;
  try {
    text = await repo.readBlob(blobSha);
  } catch (error) {
    return { error: (error as Error).message };
  }
  try {
    return { value: parse(text) };
  } catch (error) {
    return { error: `${path}: ${(error as Error).message}` };
  }
}

/**
 * Reads a Product's Release records and Environments at one commit. A bad
 * file becomes an error on its stage; the other stages are unaffected.
 */
export async function readProductRecords(
  repo: PlatformRepoReader,
  config: PromotionsConfig,
  index: RepoFileIndex,
  product: ProductRef,
): Promise<ProductRecords> {
  const productDirs = [
    `${config.releasesPath}/${product.team}/${product.product}/`,
    `${config.environmentsPath}/${product.team}/${product.product}/`,
  ];
  const exists = Object.keys(index).some(path =>
    productDirs.some(dir => path.startsWith(dir)),
  );

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
