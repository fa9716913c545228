const DAY_MS = 24 * 60 * 60 * 1000;
const WEEK_MS = 7 * DAY_MS;

/** One slice of the chosen window, for a trend point. */
export interface TrendWindow {
  from: Date;
  to: Date;
}

/**
 * The chosen window cut into consecutive slices for the trend lines: whole
 * weeks from `from` (the last one may be shorter), or, when that would be
 * more than `maxSlices`, that many equal slices. Each slice is one
 * `/metrics` request, so the count stays small.
 */
export function trendWindows(from: Date, to: Date, maxSlices = 8): TrendWindow[] {
  const span = to.getTime() - from.getTime();
  if (span <= 0) return [];
  const step = Math.ceil(span / WEEK_MS) <= maxSlices ? WEEK_MS : Math.ceil(span / maxSlices);
  const slices: TrendWindow[] = [];
  for (let start = from.getTime(); start < to.getTime(); start += step) {
    slices.push({ from: new Date(start), to: new Date(Math.min(start + step, to.getTime())) });
  }
  return slices;
}
