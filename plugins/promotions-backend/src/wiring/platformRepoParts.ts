import { createOctokit, sharedWriteBudget } from '../github/createOctokit';
import { PlatformRepoReader } from '../github/PlatformRepoReader';
import { PlatformRepoWriter } from '../github/PlatformRepoWriter';
import { readCacheTtlMs } from '../health/cacheTtl';
import { DatabaseWriteLedger } from '../database/DatabaseWriteLedger';
import { PartDeps } from './deps';

/**
 * The platform repository's clients. One GitHub identity, so one write
 * ledger; two clients that differ by who writes: a person's request retries
 * within the request, the Gate's run does not (its next run retries) and
 * lists conditionally through the cache, so an unchanged run is answered 304.
 */
export function platformRepoParts({ rootConfig, config, cache, logger, db }: PartDeps) {
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
  return {
    /** GitHub's write limit as this identity's writes spend it (the one both clients wait for). */
    writeBudget: writeBudget && sharedWriteBudget(host, writeBudget, logger, writeLedger),
    /** Reads and compares: the views', the requests' and the delivery metrics'. */
    octokit,
    cacheTtlMs,
    reader,
    requestWriter: new PlatformRepoWriter(octokit, config.platformRepo),
    gateWriter: new PlatformRepoWriter(gateOctokit, config.platformRepo, cache),
  };
}

export type PlatformRepoParts = ReturnType<typeof platformRepoParts>;
