/** The Service column: a service's name on a line or two. */
export const SERVICE_COLUMN_PX = 112;

/**
 * The narrowest stage column whose Promote buttons keep their text. The
 * rung's outlined "↑ PROMOTE" is 110 px and a cell's padding 20 px: in
 * Chromium, labels spilled out of a 118 px column and fitted a 128 px one.
 * The rest is room for "Replace…" and other fonts.
 */
export const FULL_LABEL_STAGE_COLUMN_PX = 140;

/**
 * The narrowest stage column the compact ladder fits: a cell's short digest
 * and its "⋮" need 97 px (Chromium). Narrower cards scroll the table
 * sideways rather than cut a cell off.
 */
export const MIN_STAGE_COLUMN_PX = 98;

/** How wide the table must be for every stage column to fit its compact content. */
export function minLadderWidth(stageCount: number): number {
  return SERVICE_COLUMN_PX + stageCount * MIN_STAGE_COLUMN_PX;
}

/**
 * Whether a ladder `width` px wide shows its Promote buttons as icons: when
 * its stage columns are too narrow for their text. A width of 0 is not
 * measured yet, and gets the full look.
 */
export function isCompactLadder(width: number, stageCount: number): boolean {
  if (width <= 0 || stageCount === 0) return false;
  return (width - SERVICE_COLUMN_PX) / stageCount < FULL_LABEL_STAGE_COLUMN_PX;
}
