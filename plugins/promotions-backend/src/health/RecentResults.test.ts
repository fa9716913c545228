import { createDeferred } from '@backstage/types';
import { RecentResults } from './RecentResults';

describe('RecentResults', () => {
  let clock = 0;
  const now = () => clock;
  beforeEach(() => {
    clock = 1_000;
  });

  it('shares one read among concurrent callers of the same key', async () => {
    const results = new RecentResults<string>(0, now);
    const upstream = createDeferred<string>();
    const read = jest.fn(() => upstream);
    const callers = [results.get('head', read), results.get('head', read), results.get('head', read)];
    upstream.resolve('abc');
    await expect(Promise.all(callers)).resolves.toEqual(['abc', 'abc', 'abc']);
    expect(read).toHaveBeenCalledTimes(1);
  });

  it('reads different keys separately', async () => {
    const results = new RecentResults<string>(5_000, now);
    const read = jest.fn(async () => 'x');
    await Promise.all([results.get('alpha/shop', read), results.get('beta/payments', read)]);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it.each([
    { ttlMs: 5_000, elapsedMs: 4_999, reads: 1 },
    { ttlMs: 5_000, elapsedMs: 5_000, reads: 2 },
    { ttlMs: 0, elapsedMs: 0, reads: 2 },
  ])('with a TTL of $ttlMs ms, a caller $elapsedMs ms after a read settled makes $reads reads in all', async ({ ttlMs, elapsedMs, reads }) => {
    const results = new RecentResults<number>(ttlMs, now);
    let count = 0;
    const read = async () => ++count;
    await results.get('head', read);
    clock += elapsedMs;
    await expect(results.get('head', read)).resolves.toBe(reads);
    expect(count).toBe(reads);
  });

  it('keeps a read that answers nothing for the TTL, as one that answers a value', async () => {
    const results = new RecentResults<void>(5_000, now);
    const allow = jest.fn(async () => undefined);
    await results.get('user:default/alice alpha/shop', allow);
    clock += 4_999;
    await results.get('user:default/alice alpha/shop', allow);
    expect(allow).toHaveBeenCalledTimes(1);
  });

  it('shares a failure with the callers waiting on it but does not remember it', async () => {
    const results = new RecentResults<string>(5_000, now);
    const upstream = createDeferred<string>();
    const waiting = [results.get('head', () => upstream), results.get('head', () => upstream)];
    upstream.reject(new Error('502 from GitHub'));
    for (const caller of waiting) await expect(caller).rejects.toThrow('502 from GitHub');
    await expect(results.get('head', async () => 'abc')).resolves.toBe('abc');
  });

  it('reads again after forget, and does not keep a read that was in flight across it', async () => {
    const results = new RecentResults<string>(5_000, now);
    const beforeWrite = createDeferred<string>();
    const inFlight = results.get('head', () => beforeWrite);
    results.forget();
    const afterWrite = results.get('head', async () => 'merged');
    beforeWrite.resolve('old');
    await expect(inFlight).resolves.toBe('old');
    await expect(afterWrite).resolves.toBe('merged');
    await expect(results.get('head', async () => 'unexpected')).resolves.toBe('merged');
  });

  it('forgets one key and keeps the others', async () => {
    const results = new RecentResults<string>(5_000, now);
    await results.get('alpha/shop', async () => 'shop 1');
    await results.get('beta/payments', async () => 'payments 1');
    results.forget('alpha/shop');
    await expect(results.get('alpha/shop', async () => 'shop 2')).resolves.toBe('shop 2');
    await expect(results.get('beta/payments', async () => 'payments 2')).resolves.toBe('payments 1');
  });

  it('forgets only the keys with the given prefixes', async () => {
    const results = new RecentResults<string>(5_000, now);
    const read = jest.fn(async () => 'x');
    await Promise.all([results.get('alpha/shop@1', read), results.get('beta/payments@1', read)]);
    results.forget('alpha/shop@');
    await Promise.all([results.get('alpha/shop@1', read), results.get('beta/payments@1', read)]);
    expect(read).toHaveBeenCalledTimes(3);
  });
});
