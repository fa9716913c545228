/**
 * Per-replica memo of recent upstream reads, keyed by what was asked: callers
 * asking the same thing while a read is in flight share its promise
 * (single-flight), and a result younger than the TTL is reused without asking
 * again. So however many viewers there are, one key costs at most one upstream
 * call per TTL per replica. A failure is shared by the callers already waiting
 * on it but not remembered: the next caller asks again.
 *
 * In process on purpose: this is request coalescing for data that goes stale
 * in seconds; the longer-lived, shareable data stays in the CacheService.
 *
 * Not lru-cache's `fetch` (`fetchMethod` with `ttl`), which shares reads in
 * flight and keeps results for a TTL too, because of what it cannot say:
 * a TTL of 0 is "never expires" there, where here it shares only the reads
 * in flight (the tree index reads, and any `promotions.cacheTtl: 0`); a read
 * answering `undefined` is "no value" there and never kept, where here a
 * `void` result is (an allowed permission check, reused for the TTL); and
 * deleting a key aborts the read in flight there, failing its callers
 * (unless `ignoreFetchAbort`), where here they still get what it reads.
 */
export class RecentResults<T> {
  private readonly entries = new Map<string, { result: Promise<T>; settledAt?: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string, read: () => Promise<T>): Promise<T> {
    const known = this.entries.get(key);
    if (known && (known.settledAt === undefined || this.isFresh(known.settledAt))) {
      return known.result;
    }
    this.forgetStale();
    const entry: { result: Promise<T>; settledAt?: number } = { result: read() };
    this.entries.set(key, entry);
    entry.result.then(
      () => {
        entry.settledAt = this.now();
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return entry.result;
  }

  /**
   * After a write that may have changed the answers: the next caller asks
   * again. A read already in flight still answers its own callers, but may
   * predate the write, so it is not kept for later ones. With key prefixes,
   * only the answers whose key starts with one of them.
   */
  forget(...keyPrefixes: string[]): void {
    for (const key of [...this.entries.keys()]) {
      if (keyPrefixes.length === 0 || keyPrefixes.some(prefix => key.startsWith(prefix))) {
        this.entries.delete(key);
      }
    }
  }

  private isFresh(settledAt: number): boolean {
    return this.now() - settledAt < this.ttlMs;
  }

  /** Keeps the map as small as the set of keys asked within one TTL. */
  private forgetStale(): void {
    for (const [key, entry] of this.entries) {
      if (entry.settledAt !== undefined && !this.isFresh(entry.settledAt)) this.entries.delete(key);
    }
  }
}
