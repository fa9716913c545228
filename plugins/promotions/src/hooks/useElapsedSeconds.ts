import { useEffect, useState } from 'react';

/**
 * Whole seconds since `reading` last changed, ticking every second up to
 * `limit`: counts a ladder's figures (soak left, canary pause) on between
 * refreshes. Counted from when the reading arrived, not tick by tick, so a
 * throttled background tab does not fall behind.
 */
export function useElapsedSeconds(reading: string | number, limit: number): number {
  const [elapsed, setElapsed] = useState(0);
  useEffect(() => {
    setElapsed(0);
    if (limit <= 0) return undefined;
    const arrived = Date.now();
    const timer = setInterval(() => {
      const seconds = Math.min(limit, Math.floor((Date.now() - arrived) / 1000));
      setElapsed(seconds);
      if (seconds >= limit) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [reading, limit]);
  return elapsed;
}
