const MAX_QUOTED_CHARS = 64;

/**
 * How an error message shows a value it refuses: a string quoted and cut
 * short, anything else by its kind, so a message never echoes a whole body.
 */
export function boundedQuote(value: unknown): string {
  if (typeof value !== 'string') {
    if (value === null) return 'null';
    return Array.isArray(value) ? 'a list' : `a ${typeof value}`;
  }
  const shown = value.length > MAX_QUOTED_CHARS ? `${value.slice(0, MAX_QUOTED_CHARS)}…` : value;
  return JSON.stringify(shown);
}
