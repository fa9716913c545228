/**
 * The q-quantile (0 ≤ q ≤ 1) of ascending `sorted` values, interpolated
 * linearly between the two nearest ranks (Hyndman & Fan type 7: NumPy's and
 * Excel PERCENTILE.INC's default), so a median of an even count is the mean
 * of the middle two. Undefined for no values.
 */
export function quantile(sorted: number[], q: number): number | undefined {
  if (sorted.length === 0) return undefined;
  const rank = (sorted.length - 1) * q;
  const lower = Math.floor(rank);
  const upper = Math.min(lower + 1, sorted.length - 1);
  return sorted[lower] + (rank - lower) * (sorted[upper] - sorted[lower]);
}
