import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { EntityProvider, catalogApiRef } from '@backstage/plugin-catalog-react';
import { Entity } from '@backstage/catalog-model';
import { permissionApiRef } from '@backstage/plugin-permission-react';
import { Ladder } from '@refplat/plugin-promotions-common';
import { PromotionsApi, promotionsApiRef } from '../../api';
import { shopLadder } from '../../__testUtils__/ladders';
import { DENY, fakePermissionApi } from '../../__testUtils__/permissions';
import { EntityPromotionLadderCard } from './EntityPromotionLadderCard';

const hold = {
  stage: 'test',
  service: 'cart',
  reason: 'Incident INC-7: cart checkout errors',
  placedBy: 'user:default/dana',
  placedAt: '2026-11-30T09:00:00.000Z',
};

/** shop as `product` (usePermission caches per Product), cart held in test. */
function heldLadder(product: string): Ladder {
  const ladder = shopLadder();
  ladder.product = product;
  ladder.stages[1].services.cart.hold = hold;
  return ladder;
}

function systemFor(product: string): Entity {
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'System',
    metadata: { name: product, annotations: { 'refplat.org/product': `alpha/${product}` } },
    spec: { owner: 'group:default/alpha' },
  };
}

function renderCard(
  product: string,
  api: Partial<PromotionsApi>,
  permissions = fakePermissionApi(),
) {
  return renderInTestApp(
    <TestApiProvider
      apis={[
        [promotionsApiRef, api],
        [catalogApiRef, { getEntityByRef: jest.fn() }],
        [permissionApiRef, permissions],
      ]}
    >
      <EntityProvider entity={systemFor(product)}>
        <EntityPromotionLadderCard />
      </EntityProvider>
    </TestApiProvider>,
  );
}

describe('EntityPromotionLadderCard holds, soak and auto-promoter', () => {
  it('shows a held cell with the reason, who and when, and Resume lifts the hold', async () => {
    const resumed = { ...heldLadder('resume') };
    resumed.stages = resumed.stages.map(stage => ({
      ...stage,
      services: Object.fromEntries(
        Object.entries(stage.services).map(([service, cell]) => [service, { ...cell, hold: undefined }]),
      ),
    }));
    const getLadder = jest
      .fn()
      .mockResolvedValueOnce(heldLadder('resume'))
      .mockResolvedValue(resumed);
    const liftHold = jest.fn(async () => hold);
    await renderCard('resume', { getLadder, liftHold });

    const chip = await screen.findByTestId('hold-test-cart');
    expect(chip).toHaveTextContent('Held');
    await userEvent.hover(chip);
    const tooltip = await screen.findByRole('tooltip');
    expect(tooltip).toHaveTextContent('Incident INC-7: cart checkout errors');
    expect(tooltip).toHaveTextContent('held by user:default/dana since');
    expect(screen.queryByTestId('hold-test-storefront')).not.toBeInTheDocument();
    expect(screen.queryByTestId('freeze-test-cart')).not.toBeInTheDocument();

    await userEvent.click(await screen.findByTestId('resume-test-cart'));
    expect(liftHold).not.toHaveBeenCalled();
    await userEvent.click(await screen.findByTestId('resume-confirm'));

    expect(liftHold).toHaveBeenCalledWith({ team: 'alpha', product: 'resume' }, 'test', 'cart');
    await waitFor(() => expect(getLadder).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(screen.queryByTestId('hold-test-cart')).not.toBeInTheDocument());
    expect(screen.queryByTestId('resume-dialog')).not.toBeInTheDocument();
    expect(screen.getByTestId('freeze-test-cart')).toBeInTheDocument();
  });

  it('freezes a cell only with a reason', async () => {
    const getLadder = jest.fn().mockResolvedValue({ ...shopLadder(), product: 'freeze' });
    const placeHold = jest.fn(async () => hold);
    await renderCard('freeze', { getLadder, placeHold });

    await userEvent.click(await screen.findByTestId('freeze-test-cart'));
    const confirm = await screen.findByTestId('freeze-confirm');
    expect(confirm).toBeDisabled();
    await userEvent.type(screen.getByTestId('freeze-reason'), '   ');
    expect(confirm).toBeDisabled();

    await userEvent.type(screen.getByTestId('freeze-reason'), 'Incident INC-7');
    expect(confirm).toBeEnabled();
    await userEvent.click(confirm);

    expect(placeHold).toHaveBeenCalledWith(
      { team: 'alpha', product: 'freeze' },
      { stage: 'test', service: 'cart', reason: 'Incident INC-7' },
    );
    await waitFor(() => expect(screen.queryByTestId('freeze-dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(getLadder).toHaveBeenCalledTimes(2));
  });

  it("shows the backend's refusal of a hold and keeps the dialog open", async () => {
    const getLadder = jest.fn().mockResolvedValue({ ...shopLadder(), product: 'refused' });
    const placeHold = jest.fn().mockRejectedValue(new Error('Unknown service cart in test'));
    await renderCard('refused', { getLadder, placeHold });

    await userEvent.click(await screen.findByTestId('freeze-test-cart'));
    await userEvent.type(await screen.findByTestId('freeze-reason'), 'why not');
    await userEvent.click(screen.getByTestId('freeze-confirm'));
    expect(await screen.findByTestId('freeze-error')).toHaveTextContent('Unknown service cart in test');
    expect(getLadder).toHaveBeenCalledTimes(1);
  });

  it('offers neither Resume nor Freeze without the hold permission, but still shows the hold', async () => {
    const permissions = fakePermissionApi({ 'promotions.hold.manage': DENY });
    await renderCard('no-hold', { getLadder: jest.fn().mockResolvedValue(heldLadder('no-hold')) }, permissions);

    expect(await screen.findByTestId('hold-test-cart')).toBeInTheDocument();
    await waitFor(() =>
      expect(permissions.authorize).toHaveBeenCalledWith(
        expect.objectContaining({ permission: expect.objectContaining({ name: 'promotions.hold.manage' }) }),
      ),
    );
    await act(async () => {
      await Promise.all(permissions.authorize.mock.results.map(result => result.value));
    });
    expect(screen.queryByTestId('resume-test-cart')).not.toBeInTheDocument();
    expect(screen.queryByTestId(/^freeze-/)).not.toBeInTheDocument();
  });

  it("shows the soak left, the stage's soak time and the auto-promoter's last word", async () => {
    const ladder = { ...shopLadder(), product: 'soak' };
    ladder.stages[1].soakSeconds = 600;
    ladder.stages[1].services.cart.soakRemainingSeconds = 250;
    ladder.stages[1].services.storefront.autoPromotion = {
      decision: 'skip',
      reason: 'storefront is not healthy in dev: Canary in progress',
      decidedAt: '2026-11-30T09:00:00.000Z',
    };
    await renderCard('soak', { getLadder: jest.fn().mockResolvedValue(ladder) });

    expect(await screen.findByTestId('soak-test-cart')).toHaveTextContent('Soaking: 4m 10s left');
    expect(screen.queryByTestId('soak-dev-cart')).not.toBeInTheDocument();
    expect(within(screen.getByTestId('stage-test')).getByText('soak 10m')).toBeInTheDocument();
    expect(within(screen.getByTestId('stage-prod')).queryByText(/^soak /)).not.toBeInTheDocument();

    const auto = screen.getByTestId('auto-test-storefront');
    expect(screen.queryByTestId('auto-test-cart')).not.toBeInTheDocument();
    await userEvent.hover(auto);
    const tooltip = await screen.findByRole('tooltip');
    expect(tooltip).toHaveTextContent(/^Auto-promoter \(.+\): skip — storefront is not healthy in dev: Canary in progress$/);
  });
});
