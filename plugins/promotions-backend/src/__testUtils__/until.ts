/**
 * Until `check` holds, looked at every 10 ms: for unit tests whose condition
 * is in memory (no request per look), without a timeout of its own (Jest's ends it).
 */
export async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise(resolve => setTimeout(resolve, 10));
}
