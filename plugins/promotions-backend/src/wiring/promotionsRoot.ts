import { readPromotionsConfig } from '../config';
import { PromotionsRootDeps } from './deps';
import { guardParts } from './guardParts';
import { ladderParts } from './ladderParts';
import { peopleParts } from './peopleParts';
import { platformRepoParts } from './platformRepoParts';
import { promotionParts } from './promotionParts';
import { storeParts } from './storeParts';

/**
 * The plugin's composition root: every service built once, in named parts,
 * each part from the ones before it. The plugin adds HTTP, tasks and
 * webhooks to them (plugin.ts); the benches and cost tests use the same parts.
 */
export function promotionsRoot(deps: PromotionsRootDeps) {
  const config = readPromotionsConfig(deps.rootConfig);
  const partDeps = { ...deps, config };
  const people = peopleParts(partDeps);
  const repo = platformRepoParts(partDeps);
  const stores = storeParts(deps.db, people.broadcaster);
  const guards = guardParts(partDeps, stores, people);
  const ladders = ladderParts(partDeps, repo, stores, people, guards);
  const promotions = promotionParts(partDeps, repo, stores, people, guards, ladders);
  return { config, people, repo, stores, guards, ladders, promotions };
}

export type PromotionsParts = ReturnType<typeof promotionsRoot>;
