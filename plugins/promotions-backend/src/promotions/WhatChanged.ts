import { CacheService } from '@backstage/backend-plugin-api';
import { ProductRef, ServiceChange, ServiceRef, SourceRevision } from '@refplat/plugin-promotions-common';
import { PromotionsConfig } from '../config';
import { GithubClient } from '../github/createOctokit';
import type { PlatformRepoFiles } from '@refplat/plugin-promotions-node';
import { readProductRecords } from '../ladder/readProductRecords';
import { COMPARE_PAGE_SIZE, NewestCommits, newestCommits } from './newestCommits';

const IMMUTABLE_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * What a promotion from one stage to another would ship: per service the
 * two digests and, where the source commit a digest was built from is known,
 * the commits between them through GitHub's compare API. The source is the
 * one verified SLSA provenance attests (`attestedSource`, with
 * `promotions.provenance`), else the one the Release record names
 * (`source: {repository, revision}`).
 */
export class WhatChanged {
  constructor(
    private readonly options: {
      config: PromotionsConfig;
      reader: PlatformRepoFiles;
      octokit: GithubClient;
      cache: CacheService;
      /** The source commit a digest's verified provenance names, where provenance is checked. */
      attestedSource?: (service: ServiceRef, digest: string) => Promise<SourceRevision | undefined>;
    },
  ) {}

  /** `fromStage` and `toStage` are stages of the ladder, as the caller checked (comparisonProblem). */
  async between(product: ProductRef, fromStage: string, toStage: string): Promise<ServiceChange[]> {
    const { config, reader } = this.options;
    // Fresh: the question follows a Release write (CI recording a source) as often as not, and a
    // conditional check of the head costs nothing while it is unchanged.
    const revision = await reader.headCommit({ fresh: true });
    const records = await readProductRecords(reader, config, await reader.fileIndex(revision), product);
    const recorded = new Map<string, SourceRevision>();
    for (const stage of records.stages) {
      for (const [service, digest] of Object.entries(stage.release.services)) {
        const source = stage.release.sources[service];
        if (source) recorded.set(digest, source);
      }
    }
    const sourceOf = async (service: string, digest: string) =>
      (await this.options.attestedSource?.({ ...product, service }, digest)) ?? recorded.get(digest);
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
        if (!toDigest) return { ...change, note: `${service} would be new in ${toStage}: no earlier digest there to compare with` };
        const newer = await sourceOf(service, fromDigest);
        const older = await sourceOf(service, toDigest);
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

  /** The newest commits between two source revisions, cached: the revisions are immutable. */
  private async compare(repository: string, base: string, head: string): Promise<NewestCommits> {
    // Not `compare:`, under which older versions cached the oldest commits of a range.
    const key = `compare-newest:${repository}:${base}...${head}`;
    const cached = await this.options.cache.get<NewestCommits>(key);
    if (cached) return cached;
    const [owner, repo] = repository.split('/');
    const readPage = async (page: number) =>
      (
        await this.options.octokit.rest.repos.compareCommitsWithBasehead({
          owner,
          repo,
          basehead: `${base}...${head}`,
          per_page: COMPARE_PAGE_SIZE,
          page,
        })
      ).data;
    try {
      const result = await newestCommits(readPage, { repository, base, head });
      await this.options.cache.set(key, result, { ttl: IMMUTABLE_TTL_MS });
      return result;
    } catch (error) {
      return { note: `GitHub could not compare ${repository} ${base}...${head}: ${(error as Error).message}` };
    }
  }
}
