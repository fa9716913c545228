import { screen } from '@testing-library/react';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { EntityProvider, catalogApiRef } from '@backstage/plugin-catalog-react';
import { Entity } from '@backstage/catalog-model';
import { promotionsApiRef } from '../../api';
import { shopLadder } from '../../__testUtils__/ladders';
import { EntityServicePromotionsCard } from './EntityServicePromotionsCard';

const shopSystem: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'System',
  metadata: { name: 'shop', annotations: { 'refplat.org/product': 'alpha/shop' } },
};

const storefront: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: { name: 'storefront', annotations: { 'refplat.org/service': 'storefront' } },
  spec: { type: 'service', system: 'shop', owner: 'alpha', lifecycle: 'production' },
};

describe('EntityServicePromotionsCard', () => {
  it("finds the Product through the System and shows the service's digest per stage", async () => {
    const getEntityByRef = jest.fn().mockResolvedValue(shopSystem);
    const getLadder = jest.fn().mockResolvedValue(shopLadder());
    await renderInTestApp(
      <TestApiProvider
        apis={[
          [promotionsApiRef, { getLadder }],
          [catalogApiRef, { getEntityByRef }],
        ]}
      >
        <EntityProvider entity={storefront}>
          <EntityServicePromotionsCard />
        </EntityProvider>
      </TestApiProvider>,
    );
    expect(await screen.findByTestId('service-stage-prod')).toHaveTextContent('sha256:bbbbbbbbbbbb');
    expect(getEntityByRef).toHaveBeenCalledWith({ kind: 'System', namespace: 'default', name: 'shop' });
    expect(getLadder).toHaveBeenCalledWith({ team: 'alpha', product: 'shop' });
    expect(screen.getByTestId('service-stage-dev')).toHaveTextContent('sha256:aaaaaaaaaaaa');
    expect(screen.getByTestId('service-stage-dev')).toHaveTextContent('In progress');
    expect(screen.getByTestId('service-stage-test')).toHaveTextContent('Healthy');
  });

  it('names the annotation to add on a Component without one', async () => {
    await renderInTestApp(
      <TestApiProvider
        apis={[
          [promotionsApiRef, { getLadder: jest.fn() }],
          [catalogApiRef, { getEntityByRef: jest.fn() }],
        ]}
      >
        <EntityProvider entity={{ ...storefront, metadata: { name: 'bare' }, spec: {} }}>
          <EntityServicePromotionsCard />
        </EntityProvider>
      </TestApiProvider>,
    );
    expect((await screen.findAllByText(/refplat\.org\/service/)).length).toBeGreaterThan(0);
  });
});
