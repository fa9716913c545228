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

/** Renders the card for `entity` with a catalog that answers `getEntityByRef`. */
async function renderCard(entity: Entity, getEntityByRef: jest.Mock, getLadder = jest.fn().mockResolvedValue(shopLadder())) {
  await renderInTestApp(
    <TestApiProvider
      apis={[
        [promotionsApiRef, { getLadder }],
        [catalogApiRef, { getEntityByRef }],
      ]}
    >
      <EntityProvider entity={entity}>
        <EntityServicePromotionsCard />
      </EntityProvider>
    </TestApiProvider>,
  );
}

describe('EntityServicePromotionsCard', () => {
  it("finds the Product through the System and shows the service's digest per stage", async () => {
    const getEntityByRef = jest.fn().mockResolvedValue(shopSystem);
    const getLadder = jest.fn().mockResolvedValue(shopLadder());
    await renderCard(storefront, getEntityByRef, getLadder);
    expect(await screen.findByTestId('service-stage-prod')).toHaveTextContent('sha256:bbbbbbbbbbbb');
    expect(getEntityByRef).toHaveBeenCalledWith({ kind: 'System', namespace: 'default', name: 'shop' });
    expect(getLadder).toHaveBeenCalledWith({ team: 'alpha', product: 'shop' });
    expect(screen.getByTestId('service-stage-dev')).toHaveTextContent('sha256:aaaaaaaaaaaa');
    expect(screen.getByTestId('service-stage-dev')).toHaveTextContent('In progress');
    expect(screen.getByTestId('service-stage-test')).toHaveTextContent('Healthy');
  });

  it('follows a full entity ref in spec.system', async () => {
    const getEntityByRef = jest.fn().mockResolvedValue(shopSystem);
    await renderCard({ ...storefront, spec: { ...storefront.spec, system: 'system:default/shop' } }, getEntityByRef);
    expect(await screen.findByTestId('service-stage-prod')).toHaveTextContent('sha256:bbbbbbbbbbbb');
    expect(getEntityByRef).toHaveBeenCalledWith({ kind: 'system', namespace: 'default', name: 'shop' });
  });

  it.each([
    ['is not in the catalog', undefined, 'The System system:default/shop in spec.system is not in the catalog'],
    [
      'has no refplat.org/product annotation',
      { ...shopSystem, metadata: { name: 'shop' } },
      'The System system:default/shop has no refplat.org/product annotation: add it there (team/product), or to this Component',
    ],
    [
      'has a malformed refplat.org/product annotation',
      { ...shopSystem, metadata: { name: 'shop', annotations: { 'refplat.org/product': 'shop' } } },
      'The System system:default/shop has a malformed refplat.org/product annotation "shop": expected team/product',
    ],
  ])('says so when the System %s', async (_case, system, message) => {
    const getLadder = jest.fn();
    await renderCard(storefront, jest.fn().mockResolvedValue(system), getLadder);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Cannot find the Product of this entity');
    expect(alert).toHaveTextContent(message);
    expect(getLadder).not.toHaveBeenCalled();
  });

  it('names the annotation to add on a Component without one', async () => {
    await renderCard({ ...storefront, metadata: { name: 'bare' }, spec: {} }, jest.fn());
    expect((await screen.findAllByText(/refplat\.org\/service/)).length).toBeGreaterThan(0);
  });
});
