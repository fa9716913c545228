import type { PromotionChecklistItem } from './checklistItem';

/**
 * Whether a gate stands in the promotion's way. The approval rule only informs, and
 * "already carried" not passing means there is nothing to promote, not that something is wrong.
 *
 * @public
 */
export function gateBlocks(item: Pick<PromotionChecklistItem, 'gate' | 'ok'>): boolean {
  if (item.gate === 'approval' || item.gate === 'carried') return false;
  return !item.ok;
}
