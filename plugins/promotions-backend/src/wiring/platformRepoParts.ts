import { createOctokit, sharedWriteBudget } from '../github/createOctokit';
import { PlatformRepoReader } from '../github/PlatformRepoReader';
import { PlatformRepoWriter } from '../github/PlatformRepoWriter';
import { readCacheTtlMs } from '../health/cacheTtl';
import { DatabaseWriteLedger } from '../database/DatabaseWriteLedger';
import type { PlatformRepo, PlatformRepoFiles } from '@refplat/plugin-promotions-node';
import { PartDeps } from './deps';

/**
 * The platform repository's clients. One GitHub identity, so one write
 * ledger; two clients that differ by who writes: a person's request retries
 * within the request, the Gate's run does not (its next run retries) and
 * lists conditionally through the cache, so an unchanged run is answered 304.
 */
export function platformRepoParts({ rootConfig, config, cache, logger, db, platformRepo }: PartDeps) {
  // Every replica's writes count against one identity's limit at GitHub: they share their count here.
  const writeLedger = new DatabaseWriteLedger(db, config.platformRepo.host);
  const octokit = createOctokit({ config: rootConfig, ...config.platformRepo, logger, writeLedger });
  const cacheTtlMs = readCacheTtlMs(rootConfig);
  const reader = new PlatformRepoReader(
    octokit,
    cache,
    config.platformRepo,
    [config.releasesPath, config.environmentsPath],
    cacheTtlMs,
  );
  const gateOctokit = createOctokit({ config: rootConfig, ...config.platformRepo, logger, retries: 0, writeLedger });
  reader.forgetHeadAfterWritesBy(gateOctokit);
  const { host, writeBudget } = config.platformRepo;
  const files: PlatformRepoFiles = platformRepo?.files ?? reader;
  const requestWriter: PlatformRepo = platformRepo?.writer ?? new PlatformRepoWriter(octokit, config.platformRepo);
  const gateWriter: PlatformRepo = platformRepo?.writer ?? new PlatformRepoWriter(gateOctokit, config.platformRepo, cache);
  return {
    /** GitHub's write limit as this identity's writes spend it (the one both clients wait for). */
    writeBudget: writeBudget && sharedWriteBudget(host, writeBudget, logger, writeLedger),
    /** Reads and compares: the views', the requests' and the delivery metrics'. */
    octokit,
    cacheTtlMs,
    /** GitHub's reader, for what reads GitHub's own history and head cache (delivery metrics, webhooks). */
    reader,
    /** The Release records as every other part reads them: GitHub's, or the slot's. */
    files,
    requestWriter,
    gateWriter,
  };
}

export type PlatformRepoParts = ReturnType<typeof platformRepoParts>;
