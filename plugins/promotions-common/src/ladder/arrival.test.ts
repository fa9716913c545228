import type { Promotion } from '../promotions/types';
import { arrivalOf } from './arrival';

const A = `sha256:${'a'.repeat(64)}`;
const B = `sha256:${'b'.repeat(64)}`;

const promotion = (id: string, overrides: Partial<Promotion>): Promotion => ({
  id,
  team: 'alpha',
  product: 'shop',
  fromStage: 'dev',
  toStage: 'test',
  services: { cart: A },
  status: 'merged',
  requestedBy: 'plugin:promotions/auto-promoter',
  pullRequest: { number: Number(id.slice(1)), url: `https://github.example/pull/${id.slice(1)}` },
  createdAt: '2026-12-01T10:00:00Z',
  updatedAt: '2026-12-01T10:01:00Z',
  ...overrides,
});

describe('arrivalOf', () => {
  it.each([
    ['the merged promotion that wrote the digest', [promotion('p1', {})], A, 'p1'],
    ['none for a digest nobody promoted here', [promotion('p1', {})], B, undefined],
    ['none without a digest', [promotion('p1', {})], undefined, undefined],
    ['not an open promotion', [promotion('p1', { status: 'open' })], A, undefined],
    ['not a closed one', [promotion('p1', { status: 'closed' })], A, undefined],
    ['not one into another stage', [promotion('p1', { toStage: 'uat' })], A, undefined],
    ['not one for another service', [promotion('p1', { services: { storefront: A } })], A, undefined],
    [
      'the newest of two that wrote it (a rollback back to it)',
      [
        promotion('p1', { updatedAt: '2026-12-01T10:01:00Z' }),
        promotion('p3', { kind: 'rollback', updatedAt: '2026-12-01T10:09:00Z' }),
        promotion('p2', { updatedAt: '2026-12-01T10:05:00Z' }),
      ],
      A,
      'p3',
    ],
  ])('finds %s', (_, promotions, digest, expected) => {
    expect(arrivalOf(promotions, 'test', 'cart', digest)?.promotionId).toBe(expected);
  });

  it('says who, which PR, when and what kind', () => {
    expect(
      arrivalOf([promotion('p4', { kind: 'rollback', requestedBy: 'user:default/bob' })], 'test', 'cart', A),
    ).toEqual({
      promotionId: 'p4',
      kind: 'rollback',
      requestedBy: 'user:default/bob',
      pullRequest: { number: 4, url: 'https://github.example/pull/4' },
      mergedAt: '2026-12-01T10:01:00Z',
    });
  });
});
