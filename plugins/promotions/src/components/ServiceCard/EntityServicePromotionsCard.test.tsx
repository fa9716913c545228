import { screen, within } from '@testing-library/react';
import { Entity } from '@backstage/catalog-model';
import { renderCard, systemFor } from '../../__testUtils__/card';
import { shopLadder } from '../../__testUtils__/ladders';
import { EntityServicePromotionsCard } from './EntityServicePromotionsCard';

const shopSystem: Entity = { ...systemFor('shop'), metadata: { ...systemFor('shop').metadata, title: 'Shop' } };

const storefront: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: { name: 'storefront', annotations: { 'refplat.org/service': 'storefront' } },
  spec: { type: 'service', system: 'shop', owner: 'alpha', lifecycle: 'production' },
};

/** Renders the card for `entity` with a catalog that answers `getEntityByRef`. */
async function renderServiceCard(
  entity: Entity,
  getEntityByRef: jest.Mock,
  getLadder = jest.fn().mockResolvedValue(shopLadder()),
) {
  await renderCard(<EntityServicePromotionsCard />, {
    entity,
    api: { getLadder },
    system: shopSystem,
    getEntityByRef,
  });
}

describe('EntityServicePromotionsCard', () => {
  it("finds the Product through the System and shows the service's digest, health and canary per stage", async () => {
    const getEntityByRef = jest.fn().mockResolvedValue(shopSystem);
    const getLadder = jest.fn().mockResolvedValue(shopLadder());
    await renderServiceCard(storefront, getEntityByRef, getLadder);

    expect(await screen.findByTestId('service-stage-prod')).toHaveTextContent('bbbbbbb');
    expect(getEntityByRef).toHaveBeenCalledWith({ kind: 'System', namespace: 'default', name: 'shop' });
    expect(getLadder).toHaveBeenCalledWith({ team: 'alpha', product: 'shop' }, { detail: 'summary' });
    const dev = screen.getByTestId('service-stage-dev');
    expect(dev).toHaveTextContent('aaaaaaa');
    expect(dev).toHaveTextContent('In progress');
    expect(within(dev).getByTestId('canary')).toHaveTextContent('Canary step 4 of 6 · 25%');
    expect(within(dev).getByTestId('canary-pause')).toHaveTextContent('paused 2s of 3s');
    expect(screen.getByTestId('service-stage-test')).toHaveTextContent('Healthy');
    expect(within(screen.getByTestId('service-stage-test')).queryByTestId('canary')).not.toBeInTheDocument();
  });

  it('shows where each digest came from, as the ladder cell does', async () => {
    const ladder = shopLadder();
    ladder.stages[0].services.storefront.provenance = {
      state: 'verified',
      sourceRepo: 'https://github.com/refplat/shop',
      sourceCommit: '3f2a1bc9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3',
      reasons: [],
    };
    ladder.stages[1].services.storefront.provenance = { state: 'failed', reasons: ['storefront sha256:bbbbbbbbbbbb: its signature is for another digest'] };
    await renderServiceCard(storefront, jest.fn().mockResolvedValue(shopSystem), jest.fn().mockResolvedValue(ladder));
    expect(await screen.findByTestId('service-provenance-dev')).toHaveTextContent('Signed · from 3f2a1bc');
    expect(screen.getByTestId('service-provenance-test')).toHaveAttribute('data-state', 'failed');
    expect(screen.queryByTestId('service-provenance-prod')).not.toBeInTheDocument();
  });

  it("links to the Product's ladder on its System page", async () => {
    await renderServiceCard(storefront, jest.fn().mockResolvedValue(shopSystem));
    const link = within(await screen.findByTestId('ladder-link')).getByRole('link');
    expect(link).toHaveTextContent('The whole ladder of Shop →');
    expect(link).toHaveAttribute('href', '/catalog/default/system/shop');
  });

  it('follows a full entity ref in spec.system', async () => {
    const getEntityByRef = jest.fn().mockResolvedValue(shopSystem);
    await renderServiceCard({ ...storefront, spec: { ...storefront.spec, system: 'system:default/shop' } }, getEntityByRef);
    expect(await screen.findByTestId('service-stage-prod')).toHaveTextContent('bbbbbbb');
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
    await renderServiceCard(storefront, jest.fn().mockResolvedValue(system), getLadder);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Cannot find the Product of this entity');
    expect(alert).toHaveTextContent(message);
    expect(getLadder).not.toHaveBeenCalled();
  });

  it('names the annotation to add on a Component without one', async () => {
    await renderServiceCard({ ...storefront, metadata: { name: 'bare' }, spec: {} }, jest.fn());
    expect((await screen.findAllByText(/refplat\.org\/service/)).length).toBeGreaterThan(0);
  });
});
