/**
 * A hold's reason is shown on the ladder: longer ones are cut to this.
 *
 * @public
 */
export const MAX_HOLD_REASON_CHARS = 500;

/**
 * A hold's reason as kept: without surrounding blanks, and cut to what the
 * ladder shows (a longer one is no refusal: the person meant to hold).
 *
 * @public
 */
export function holdReason(reason: string): string {
  return reason.trim().slice(0, MAX_HOLD_REASON_CHARS);
}
