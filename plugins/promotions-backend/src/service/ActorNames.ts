import { AuthService, CacheService, LoggerService } from '@backstage/backend-plugin-api';
import { CatalogService } from '@backstage/plugin-catalog-node';
import { actorNameWithoutCatalog, entityDisplayName, isCatalogActor } from '@refplat/plugin-promotions-common';
import type { ActorNames, NameOf } from '@refplat/plugin-promotions-node';

export type { ActorNames, NameOf } from '@refplat/plugin-promotions-node';

/** Without a catalog: entity names and the workers' names (tests, and what a failed lookup falls back to). */
export const namesWithoutCatalog: ActorNames = {
  namesOf: async () => actorNameWithoutCatalog,
};

/** Display names change rarely; a name five minutes old is good enough for a comment. */
const TTL_MS = 5 * 60_000;
const FIELDS = ['kind', 'metadata.name', 'metadata.namespace', 'metadata.title', 'spec.profile.displayName'];

/**
 * Names from the catalog (`spec.profile.displayName`, else `metadata.title`,
 * else the entity name), kept in Backstage's cache, so replicas sharing a
 * cache store share them. A catalog that cannot answer makes entity names,
 * not refs, and is asked again next time.
 */
export class CatalogActorNames implements ActorNames {
  constructor(
    private readonly options: {
      catalog: CatalogService;
      auth: AuthService;
      cache: CacheService;
      logger: LoggerService;
    },
  ) {}

  async namesOf(actors: Iterable<string | undefined>): Promise<NameOf> {
    const refs = [...new Set([...actors].filter((actor): actor is string => !!actor && isCatalogActor(actor)))];
    const known = new Map<string, string>();
    const missing: string[] = [];
    for (const ref of refs) {
      const cached = await this.options.cache.get<string>(cacheKey(ref));
      if (cached) known.set(ref, cached);
      else missing.push(ref);
    }
    if (missing.length) {
      for (const [ref, name] of await this.lookUp(missing)) {
        known.set(ref, name);
        await this.options.cache.set(cacheKey(ref), name, { ttl: TTL_MS });
      }
    }
    return actor => known.get(actor) ?? actorNameWithoutCatalog(actor);
  }

  /** Display names of the refs the catalog has; those it lacks are called by their entity name. */
  private async lookUp(refs: string[]): Promise<Array<[string, string]>> {
    const { catalog, auth, logger } = this.options;
    try {
      const { items } = await catalog.getEntitiesByRefs(
        { entityRefs: refs, fields: FIELDS },
        { credentials: await auth.getOwnServiceCredentials() },
      );
      return refs.map((ref, index) => {
        const entity = items[index];
        return [ref, entity ? entityDisplayName(entity) : actorNameWithoutCatalog(ref)];
      });
    } catch (error) {
      logger.warn(`Could not read the names of ${refs.join(', ')} from the catalog: ${error}`);
      return [];
    }
  }
}

function cacheKey(ref: string) {
  return `actor-name:${ref.toLocaleLowerCase('en-US')}`;
}
