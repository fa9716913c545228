import type { Application } from '@refplat/plugin-promotions-common';
import { listingsByProduct, productLabelSelector, productOfApplication } from './HealthSource';

const LABELS = { team: 'example.com/team', product: 'example.com/product' };
const app = (name: string, labels: Record<string, string>): Application => ({ metadata: { name, labels } });

describe('the Product labels of Applications (promotions.applications.labels)', () => {
  it('selects one Product, or every labelled Application', () => {
    expect(productLabelSelector(LABELS, { team: 'alpha', product: 'shop' })).toBe(
      'example.com/team=alpha,example.com/product=shop',
    );
    expect(productLabelSelector(LABELS)).toBe('example.com/team,example.com/product');
  });

  it.each<[Record<string, string>, { team: string; product: string } | undefined]>([
    [{ 'example.com/team': 'alpha', 'example.com/product': 'shop' }, { team: 'alpha', product: 'shop' }],
    [{ 'refplat.org/team': 'alpha', 'refplat.org/product': 'shop' }, undefined],
    [{ 'example.com/team': 'alpha' }, undefined],
  ])('%p names %p', (labels, expected) => {
    expect(productOfApplication(LABELS, app('a', labels))).toEqual(expected);
  });

  it('groups one listing of every Product by those labels, leaving out what they do not name', () => {
    const listing = {
      errors: [],
      applications: [
        app('alpha-shop-dev', { 'example.com/team': 'alpha', 'example.com/product': 'shop' }),
        app('beta-payments-dev', { 'example.com/team': 'beta', 'example.com/product': 'payments' }),
        app('stray', {}),
      ].map(application => ({ application, source: 'argocd' })),
    };
    const listingFor = listingsByProduct(listing, LABELS);
    expect(listingFor({ team: 'alpha', product: 'shop' }).applications.map(o => o.application.metadata?.name)).toEqual([
      'alpha-shop-dev',
    ]);
    expect(listingFor({ team: 'gamma', product: 'web' }).applications).toEqual([]);
  });
});
