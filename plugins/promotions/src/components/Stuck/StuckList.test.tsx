import { screen, within } from '@testing-library/react';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { catalogApiRef, entityRouteRef } from '@backstage/plugin-catalog-react';
import { StuckItem } from '@refplat/plugin-promotions-common';
import { PromotionsApi, promotionsApiRef } from '../../api';
import { systemFor } from '../../__testUtils__/card';
import { StuckList } from './StuckList';

const NOW = new Date('2027-01-10T12:00:00Z');

const stuckCanary: StuckItem = {
  product: 'alpha/shop',
  team: 'alpha',
  stage: 'prod',
  service: 'cart',
  summary: 'cart in prod: canary paused at 25% for 40m',
  diagnosis: {
    state: 'stuck',
    lastCompletedStep: 'Canary at 25%',
    likelyCause: 'The analysis has not passed',
    whereToLook: [{ label: 'ArgoCD: shop-prod', url: 'https://argocd.example.com/applications/shop-prod' }],
    code: 'canary-stuck',
  },
  stuckSince: '2027-01-10T11:20:00Z',
  owners: ['group:default/alpha'],
};

async function renderStuck(listStuck: PromotionsApi['listStuck']) {
  const getEntities = jest.fn(async () => ({ items: [systemFor('shop')] }));
  await renderInTestApp(
    <TestApiProvider apis={[[promotionsApiRef, { listStuck }], [catalogApiRef, { getEntities }]]}>
      <StuckList now={NOW} />
    </TestApiProvider>,
    { mountedRoutes: { '/catalog/:namespace/:kind/:name': entityRouteRef } },
  );
}

describe('StuckList', () => {
  it('lists each stuck deployment with its diagnosis, how long, its owner and where to look', async () => {
    await renderStuck(jest.fn(async () => [stuckCanary]));

    const diagnosis = await screen.findByTestId('stuck-alpha/shop-prod-cart');
    expect(diagnosis).toHaveTextContent('cart in prod: canary paused at 25% for 40m');
    expect(diagnosis).toHaveTextContent('The analysis has not passed');
    const row = diagnosis.closest('tr')!;
    expect(row).toHaveTextContent('cart in prod');
    expect(row).toHaveTextContent('40m');
    expect(within(row).getByText('alpha')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: /ArgoCD: shop-prod/ })).toHaveAttribute(
      'href',
      'https://argocd.example.com/applications/shop-prod',
    );
    expect(await within(row).findByRole('link', { name: 'alpha/shop' })).toHaveAttribute(
      'href',
      '/catalog/default/system/shop',
    );
  });

  it('says so when nothing is stuck', async () => {
    await renderStuck(jest.fn(async () => []));
    expect(await screen.findByTestId('stuck-empty')).toHaveTextContent('Nothing is stuck.');
  });
});
