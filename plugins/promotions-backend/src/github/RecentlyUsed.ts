/**
 * A bounded in-process map for values that never go stale (keyed by an
 * immutable sha): the least recently used entry makes way for a new one.
 */
export class RecentlyUsed<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) this.touch(key, value);
    return value;
  }

  /** Answers `value`, so a read can end with `return recent.set(key, read)`. */
  set(key: K, value: V): V {
    this.touch(key, value);
    if (this.entries.size > this.capacity) {
      this.entries.delete(this.entries.keys().next().value!);
    }
    return value;
  }

  /** A Map iterates in insertion order: re-inserting moves the key to the most recent end. */
  private touch(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
  }
}
