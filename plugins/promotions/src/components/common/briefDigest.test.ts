import { briefDigest } from './briefDigest';

describe('briefDigest', () => {
  it.each([
    [`sha256:4eb3213511f2${'0'.repeat(52)}`, '4eb3213'],
    ['sha512:abcdef0123', 'abcdef0'],
    ['4eb3213511f2', '4eb3213'],
  ])('shortens %s to %s', (digest, brief) => {
    expect(briefDigest(digest)).toBe(brief);
  });
});
