import { CacheService } from '@backstage/backend-plugin-api';
import { ProductRef } from '@refplat/plugin-promotions-common';
import { PromotionsConfig, requireStage } from '../config';
import { GithubClient } from '../github/createOctokit';
import { PlatformRepoReader } from '../github/PlatformRepoReader';
import { readProductRecords } from '../ladder/readProductRecords';

type Source = { repository: string; revision: string };

export interface ServiceChange {
  service: string;
  /** Digest in the lower stage: what a promotion would ship. */
  from?: string;
  /** Digest in the upper stage now. */
  to?: string;
  changed: boolean;
  commits?: Array<{ sha: string; message: string; author: string; url: string }>;
  compareUrl?: string;
  /** Said plainly when the commits cannot be shown. */
  note?: string;
}

const IMMUTABLE_TTL_MS = 24 * 60 * 60 * 1000;
const MAX_COMMITS = 50;

/**
 * What a promotion from one stage to another would ship: per service the
 * two digests and, where Release records name the source commit a digest
 * was built from (`source: {repository, revision}`), the commits between
 * them through GitHub's compare API.
 */
export class WhatChanged {
  constructor(
    private readonly options: {
      config: PromotionsConfig;
      reader: PlatformRepoReader;
      octokit: GithubClient;
      cache: CacheService;
    },
  ) {}

  async between(product: ProductRef, fromStage: string, toStage: string): Promise<ServiceChange[]> {
    const { config, reader } = this.options;
    requireStage(config, fromStage);
    requireStage(config, toStage);
    const revision = await reader.headCommit();
    const records = await readProductRecords(reader, config, await reader.fileIndex(revision), product);
    const sourceOf = new Map<string, Source>();
    for (const stage of records.stages) {
      for (const [service, digest] of Object.entries(stage.release.services)) {
        const source = stage.release.sources[service];
        if (source) sourceOf.set(digest, source);
      }
    }
    const from = records.stages.find(s => s.name === fromStage)!;
    const to = records.stages.find(s => s.name === toStage)!;
    return Promise.all(
      records.services.map(async service => {
        const fromDigest = from.release.services[service];
        const toDigest = to.release.services[service];
        const change: ServiceChange = {
          service,
          from: fromDigest,
          to: toDigest,
          changed: fromDigest !== toDigest,
        };
        if (!change.changed || !fromDigest) return change;
        const newer = sourceOf.get(fromDigest);
        const older = toDigest ? sourceOf.get(toDigest) : undefined;
        if (!newer || !older) {
          return {
            ...change,
            note: `No source commit is recorded for ${!newer ? fromDigest : toDigest}; CI can add spec.services.${service}.source {repository, revision} to the Release`,
          };
        }
        if (newer.repository !== older.repository) {
          return { ...change, note: `The two digests come from different repositories (${older.repository}, ${newer.repository})` };
        }
        return { ...change, ...(await this.compare(newer.repository, older.revision, newer.revision)) };
      }),
    );
  }

  private async compare(repository: string, base: string, head: string) {
    const key = `compare:${repository}:${base}...${head}`;
    const cached = await this.options.cache.get<Pick<ServiceChange, 'commits' | 'compareUrl'>>(key);
    if (cached) return cached;
    const [owner, repo] = repository.split('/');
    try {
      const { data } = await this.options.octokit.rest.repos.compareCommitsWithBasehead({
        owner,
        repo,
        basehead: `${base}...${head}`,
        per_page: MAX_COMMITS,
      });
      const result = {
        compareUrl: data.html_url,
        commits: data.commits.slice(-MAX_COMMITS).reverse().map(commit => ({
          sha: commit.sha,
          message: commit.commit.message.split('\n')[0],
          author: commit.author?.login ?? commit.commit.author?.name ?? 'unknown',
          url: commit.html_url,
        })),
      };
      await this.options.cache.set(key, result, { ttl: IMMUTABLE_TTL_MS });
      return result;
    } catch (error) {
      return { note: `GitHub could not compare ${repository} ${base}...${head}: ${(error as Error).message}` };
    }
  }
}
