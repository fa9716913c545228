/**
 * A promise-chain mutex. Every write to the repository (refs and the GitHub
 * metadata that goes with them) runs inside it, so that compare-and-swap
 * checks and the writes they guard cannot interleave.
 */
export class Mutex {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    // The chain must survive a failed task, or one error would block all writes.
    this.tail = result.catch(() => undefined);
    return result;
  }
}
