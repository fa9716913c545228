import { screen, waitFor } from '@testing-library/react';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { EntityProvider, catalogApiRef } from '@backstage/plugin-catalog-react';
import { Entity } from '@backstage/catalog-model';
import { Ladder } from '@refplat/plugin-promotions-common';
import { PromotionsApi, promotionsApiRef } from '../../api';
import { digest, shopLadder } from '../../__testUtils__/ladders';
import { EntityPromotionLadderCard } from './EntityPromotionLadderCard';

const shopSystem: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'System',
  metadata: { name: 'shop', annotations: { 'refplat.org/product': 'alpha/shop' } },
  spec: { owner: 'group:default/alpha' },
};

function renderCard(api: Partial<PromotionsApi>, entity: Entity = shopSystem) {
  return renderInTestApp(
    <TestApiProvider
      apis={[
        [promotionsApiRef, api],
        [catalogApiRef, { getEntityByRef: jest.fn() }],
      ]}
    >
      <EntityProvider entity={entity}>
        <EntityPromotionLadderCard />
      </EntityProvider>
    </TestApiProvider>,
  );
}

describe('EntityPromotionLadderCard', () => {
  it('shows stages left to right, services as rows, digests, canary and what waits to climb', async () => {
    const getLadder = jest.fn(async (): Promise<Ladder> => shopLadder());
    await renderCard({ getLadder });

    expect(await screen.findByText('Promotion ladder')).toBeInTheDocument();
    expect(getLadder).toHaveBeenCalledWith({ team: 'alpha', product: 'shop' });
    const headers = screen.getAllByTestId(/^stage-/).map(el => el.getAttribute('data-testid'));
    expect(headers).toEqual(['stage-dev', 'stage-test', 'stage-prod']);
    expect(screen.getByTestId('service-row-storefront')).toBeInTheDocument();
    expect(screen.getByTestId('service-row-cart')).toBeInTheDocument();

    const devStorefront = screen.getByTestId('cell-dev-storefront');
    expect(devStorefront).toHaveTextContent('sha256:aaaaaaaaaaaa');
    expect(devStorefront).toHaveTextContent('Canary step 4 of 6: 25% of traffic');
    expect(screen.getByTestId('cell-test-storefront')).toHaveTextContent('new digest in dev');
    expect(screen.getByTestId('cell-test-cart')).not.toHaveTextContent('new digest');
    expect(screen.getByText('approval')).toBeInTheDocument();
    expect(
      screen.getAllByTestId('digest').map(el => el.getAttribute('data-digest')),
    ).toContain(digest('b'));
  });

  it('names the annotation to add when the entity has none', async () => {
    await renderCard(
      { getLadder: jest.fn() },
      { ...shopSystem, metadata: { name: 'bare' } },
    );
    expect((await screen.findAllByText(/refplat\.org\/product/)).length).toBeGreaterThan(0);
  });

  it('shows the error when the ladder cannot be read', async () => {
    await renderCard({
      getLadder: jest.fn().mockRejectedValue(new Error('GitHub failed while reading branch main (HTTP 503)')),
    });
    expect(await screen.findByText(/Cannot read the ladder/)).toBeInTheDocument();
    expect(screen.getAllByText(/GitHub failed while reading branch main/).length).toBeGreaterThan(0);
  });

  it('keeps the digests and warns when health is unknown', async () => {
    const ladder = shopLadder();
    ladder.healthError = "ArgoCD 'argocd' unreachable: connection refused";
    await renderCard({ getLadder: jest.fn().mockResolvedValue(ladder) });
    expect(await screen.findByText(/Health unknown/)).toBeInTheDocument();
    expect(screen.getByText(/connection refused/)).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByTestId('cell-dev-cart')).toHaveTextContent('sha256:cccccccccccc'),
    );
  });
});
