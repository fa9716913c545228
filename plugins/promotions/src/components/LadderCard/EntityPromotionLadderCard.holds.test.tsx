import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Hold, Ladder } from '@refplat/plugin-promotions-common';
import { PromotionsApi } from '../../api';
import { CardOptions, renderCard, systemFor } from '../../__testUtils__/card';
import { DENY, fakePermissionApi } from '../../__testUtils__/permissions';
import { shopLadder } from '../../__testUtils__/ladders';
import { EntityPromotionLadderCard } from './EntityPromotionLadderCard';

const hold: Hold = {
  stage: 'test',
  service: 'cart',
  reason: 'Incident INC-7: cart checkout errors',
  placedBy: 'user:default/dana',
  placedAt: '2026-11-30T09:00:00.000Z',
};

/** shop as `product` (usePermission caches per Product), cart held in `stage`. */
function heldLadder(product: string, stage = 'test'): Ladder {
  const ladder = { ...shopLadder(), product, approvers: ['group:default/release-approvers'] };
  const held = ladder.stages.find(candidate => candidate.name === stage)!;
  held.services.cart.hold = { ...hold, stage };
  return ladder;
}

function renderLadderCard(product: string, api: Partial<PromotionsApi>, options: Partial<CardOptions> = {}) {
  return renderCard(<EntityPromotionLadderCard />, { entity: systemFor(product), api, ...options });
}

async function openActions(key: string) {
  await userEvent.click(await screen.findByTestId(`actions-${key}`));
  return screen.findByRole('menu');
}

describe('EntityPromotionLadderCard holds, soak and auto-promoter', () => {
  it('shows why a cell is held and by whom on the cell itself, and Resume lifts the hold', async () => {
    const resumed = heldLadder('resume');
    delete resumed.stages[1].services.cart.hold;
    const getLadder = jest
      .fn()
      .mockResolvedValueOnce(heldLadder('resume'))
      .mockResolvedValue(resumed);
    const liftHold = jest.fn(async () => hold);
    await renderLadderCard('resume', { getLadder, liftHold });

    expect(await screen.findByTestId('hold-test-cart')).toHaveTextContent('Held');
    expect(screen.getByTestId('hold-reason-test-cart')).toHaveTextContent('Incident INC-7: cart checkout errors');
    expect(screen.getByTestId('hold-notice-test-cart')).toHaveTextContent('by dana');
    expect(screen.queryByTestId('hold-test-storefront')).not.toBeInTheDocument();

    const resume = screen.getByTestId('resume-test-cart');
    await waitFor(() => expect(resume).toBeEnabled());
    await userEvent.click(resume);
    expect(liftHold).not.toHaveBeenCalled();
    await userEvent.click(await screen.findByTestId('resume-confirm'));
    expect(liftHold).toHaveBeenCalledWith({ team: 'alpha', product: 'resume' }, 'test', 'cart');
    await waitFor(() => expect(getLadder).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(screen.queryByTestId('hold-test-cart')).not.toBeInTheDocument());
    expect(screen.queryByTestId('resume-dialog')).not.toBeInTheDocument();
  });

  it('freezes a cell from its actions, only with a reason', async () => {
    const getLadder = jest.fn().mockResolvedValue(heldLadder('freeze', 'prod'));
    const placeHold = jest.fn(async () => hold);
    await renderLadderCard('freeze', { getLadder, placeHold });

    const menu = await openActions('test-cart');
    const freeze = within(menu).getByTestId('freeze-test-cart');
    expect(freeze).toHaveTextContent('Freeze cart in test…');
    await waitFor(() => expect(freeze).not.toHaveAttribute('aria-disabled', 'true'));
    await userEvent.click(freeze);
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

  it('offers no Freeze on the first stage, where nothing is promoted into, nor on a held cell', async () => {
    await renderLadderCard('first-stage', { getLadder: jest.fn().mockResolvedValue(heldLadder('first-stage')) });
    const dev = await openActions('dev-cart');
    expect(within(dev).queryByTestId('freeze-dev-cart')).not.toBeInTheDocument();
    expect(within(dev).getByTestId('copy-digest-dev-cart')).toHaveTextContent('Copy digest');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    const held = await openActions('test-cart');
    expect(within(held).queryByTestId('freeze-test-cart')).not.toBeInTheDocument();
  });

  it("shows the backend's refusal of a hold and keeps the dialog open", async () => {
    const getLadder = jest.fn().mockResolvedValue(heldLadder('refused', 'prod'));
    const placeHold = jest.fn().mockRejectedValue(new Error('Unknown service cart in test'));
    await renderLadderCard('refused', { getLadder, placeHold });

    const menu = await openActions('test-cart');
    await waitFor(() => expect(within(menu).getByTestId('freeze-test-cart')).not.toHaveAttribute('aria-disabled', 'true'));
    await userEvent.click(within(menu).getByTestId('freeze-test-cart'));
    await userEvent.type(await screen.findByTestId('freeze-reason'), 'why not');
    await userEvent.click(screen.getByTestId('freeze-confirm'));
    expect(await screen.findByTestId('freeze-error')).toHaveTextContent('Unknown service cart in test');
    expect(getLadder).toHaveBeenCalledTimes(1);
  });

  it('disables Freeze and Resume, saying why, without the hold permission, and still shows the hold', async () => {
    const permissions = fakePermissionApi({ 'promotions.hold.manage': DENY });
    await renderLadderCard('no-hold', { getLadder: jest.fn().mockResolvedValue(heldLadder('no-hold')) }, { permissions });

    expect(await screen.findByTestId('hold-reason-test-cart')).toHaveTextContent('Incident INC-7');
    const resume = screen.getByTestId('resume-test-cart');
    await waitFor(() => expect(permissions.authorize).toHaveBeenCalled());
    await waitFor(() => expect(resume).toBeDisabled());
    const menu = await openActions('prod-cart');
    const freeze = within(menu).getByTestId('freeze-prod-cart');
    expect(freeze).toHaveAttribute('aria-disabled', 'true');
    expect(freeze).toHaveTextContent('You may not freeze services');
  });

  it('lets only release-approvers resume a hold at an approval stage', async () => {
    await renderLadderCard('prod-hold', { getLadder: jest.fn().mockResolvedValue(heldLadder('prod-hold', 'prod')) });
    const resume = await screen.findByTestId('resume-prod-cart');
    await waitFor(() => expect(resume).toBeDisabled());
    await userEvent.hover(resume.parentElement!);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      'Only release-approvers (release-approvers) may resume a service here',
    );
  });

  it("shows the soak left, the stage's soak time and, where a digest waits, the auto-promoter's last word", async () => {
    const ladder = { ...shopLadder(), product: 'soak' };
    ladder.stages[1].soakSeconds = 600;
    ladder.stages[1].services.cart.soakRemainingSeconds = 250;
    ladder.stages[1].services.storefront.autoPromotion = {
      decision: 'skip',
      reason: 'storefront is not healthy in dev: Canary in progress',
      decidedAt: '2026-11-30T09:00:00.000Z',
    };
    await renderLadderCard('soak', { getLadder: jest.fn().mockResolvedValue(ladder) });

    expect(await screen.findByTestId('soak-test-cart')).toHaveTextContent('Soaking: 4m 10s left');
    expect(screen.queryByTestId('soak-dev-cart')).not.toBeInTheDocument();
    expect(within(screen.getByTestId('stage-test')).getByText('soak 10m')).toBeInTheDocument();
    expect(within(screen.getByTestId('stage-prod')).queryByText(/^soak /)).not.toBeInTheDocument();

    await userEvent.hover(within(screen.getByTestId('cell-test-storefront')).getByTestId('waiting-to-climb'));
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      /^dev runs aaaaaaa; test has bbbbbbb\. Auto-promoter, .+: skipped — storefront is not healthy in dev: Canary in progress$/,
    );
  });
});
