import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { EntityProvider, catalogApiRef } from '@backstage/plugin-catalog-react';
import { Entity } from '@backstage/catalog-model';
import { Ladder } from '@refplat/plugin-promotions-common';
import { permissionApiRef } from '@backstage/plugin-permission-react';
import { PromotionsApi, promotionsApiRef } from '../../api';
import { digest, shopLadder, shopPromotion } from '../../__testUtils__/ladders';
import { fakePermissionApi } from '../../__testUtils__/permissions';
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
        [permissionApiRef, fakePermissionApi()],
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

  it('offers Request Promotion per rung and cell, history per stage, and lists open promotions', async () => {
    const ladder = shopLadder();
    ladder.stages[1].services.storefront.promotion = {
      allowed: false,
      reason: 'storefront is not healthy in dev',
    };
    ladder.promotions = [shopPromotion()];
    await renderCard({ getLadder: jest.fn().mockResolvedValue(ladder) });

    expect(await screen.findByTestId('request-promotion-test')).toBeInTheDocument();
    expect(screen.getByTestId('request-promotion-prod')).toBeInTheDocument();
    expect(screen.queryByTestId('request-promotion-dev')).not.toBeInTheDocument();
    expect(screen.queryByTestId('request-promotion-dev-cart')).not.toBeInTheDocument();
    expect(screen.getByTestId('request-promotion-test-storefront')).toBeDisabled();
    expect(screen.getByTestId('request-promotion-test-storefront').parentElement).toHaveAttribute(
      'title',
      'storefront is not healthy in dev',
    );
    expect(screen.getByTestId('history-dev')).toBeInTheDocument();
    expect(within(screen.getByTestId('open-promotion-p-1')).getByText('#42')).toBeInTheDocument();
  });

  it('re-reads the ladder once a promotion was requested', async () => {
    const ladder = shopLadder();
    ladder.product = 'refresh';
    ladder.stages[1].services.storefront.digest = digest('d');
    const getLadder = jest.fn().mockResolvedValue(ladder);
    const requestPromotion = jest.fn(async () => ({
      promotion: shopPromotion({ product: 'refresh' }),
      existing: false,
      plan: [],
    }));
    await renderCard(
      { getLadder, requestPromotion, listPromotions: jest.fn(async () => []) },
      { ...shopSystem, metadata: { name: 'refresh', annotations: { 'refplat.org/product': 'alpha/refresh' } } },
    );

    const button = await screen.findByTestId('request-promotion-prod');
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.click(button);
    await userEvent.click(await screen.findByTestId('promotion-submit'));
    expect(await screen.findByTestId('promotion-pr-link')).toHaveTextContent('#42');
    expect(requestPromotion).toHaveBeenCalledWith(
      { team: 'alpha', product: 'refresh' },
      { toStage: 'prod', services: ['storefront'] },
    );
    await waitFor(() => expect(getLadder).toHaveBeenCalledTimes(2));
  });

  it('keeps the approval result on screen while the ladder refreshes', async () => {
    const awaiting = shopPromotion({ product: 'approved', status: 'awaiting-approval' });
    const approved = { ...awaiting, status: 'approved' as const, approvedBy: 'user:default/carol' };
    const ladder = (promotion: typeof awaiting) => ({
      ...shopLadder(),
      product: 'approved',
      promotions: [promotion],
    });
    const getLadder = jest
      .fn()
      .mockResolvedValueOnce(ladder(awaiting))
      .mockResolvedValue(ladder(approved));
    const approvePromotion = jest.fn(async () => approved);
    await renderCard(
      { getLadder, approvePromotion },
      { ...shopSystem, metadata: { name: 'approved', annotations: { 'refplat.org/product': 'alpha/approved' } } },
    );

    await userEvent.click(await screen.findByTestId('approve-p-1'));
    await userEvent.click(await screen.findByTestId('approve-confirm'));
    await waitFor(() =>
      expect(screen.getByTestId('promotion-status-p-1')).toHaveTextContent('approved'),
    );
    expect(screen.queryByTestId('approve-p-1')).not.toBeInTheDocument();
    expect(screen.getByTestId('approve-result')).toHaveTextContent('Approved by user:default/carol');
  });
});
