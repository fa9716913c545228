import { parseEntityRef } from '@backstage/catalog-model';

/**
 * What of a catalog entity names it for people: a User's
 * `spec.profile.displayName`, else `metadata.title`, else `metadata.name`.
 *
 * @public
 */
export interface NamedEntity {
  metadata: { name: string; title?: string };
  spec?: { profile?: { displayName?: string } } | object;
}

/** @public */
export function entityDisplayName(entity: NamedEntity): string {
  const profile = (entity.spec as { profile?: { displayName?: unknown } } | undefined)?.profile;
  const displayName = typeof profile?.displayName === 'string' ? profile.displayName.trim() : '';
  return displayName || entity.metadata.title?.trim() || entity.metadata.name;
}

const CATALOG_ACTOR = /^(user|group):/i;

/**
 * Whether an actor (a promotion's requester, approver, rejecter) is a person
 * or group in the catalog, rather than one of the plugin's workers or a
 * GitHub login.
 *
 * @public
 */
export function isCatalogActor(actor: string): boolean {
  return CATALOG_ACTOR.test(actor);
}

const PLUGIN_WORKER = /^plugin:[^/]+\/|^promotions-/;

/**
 * How to call an actor when the catalog cannot say: a person or group by
 * their entity name (`user:default/alice` is "alice", never the ref), the
 * plugin's own workers by name (`plugin:promotions/auto-promoter` is
 * "Auto-promoter", `promotions-gate` "Gate"), anything else (a GitHub
 * login) as it is.
 *
 * @public
 */
export function actorNameWithoutCatalog(actor: string): string {
  if (isCatalogActor(actor)) return parseEntityRef(actor).name;
  if (!PLUGIN_WORKER.test(actor)) return actor;
  const name = actor.replace(PLUGIN_WORKER, '');
  return name.charAt(0).toLocaleUpperCase('en-US') + name.slice(1);
}

/**
 * The refs in a promotion's `approvedBy`: everyone whose approval counted,
 * comma-separated when a quorum or an incident commander took more than one.
 *
 * @public
 */
export function approverRefs(approvedBy: string | undefined): string[] {
  return (approvedBy ?? '')
    .split(',')
    .map(ref => ref.trim())
    .filter(Boolean);
}
