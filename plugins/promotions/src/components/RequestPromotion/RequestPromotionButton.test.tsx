import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Ladder, LadderStage } from '@refplat/plugin-promotions-common';
import { conflict } from '../../__testUtils__/errors';
import { digest, shopLadder, shopPromotion } from '../../__testUtils__/ladders';
import { DENY, fakePermissionApi } from '../../__testUtils__/permissions';
import { renderWithPromotionsApis, TestApis } from '../../__testUtils__/render';
import { RequestPromotionButton } from './RequestPromotionButton';

/** shop with a new healthy storefront in test, waiting to climb into prod. */
function ladderWithStorefrontReadyForProd(product = 'shop'): Ladder {
  const ladder = shopLadder();
  ladder.product = product;
  ladder.approvers = ['group:default/release-approvers'];
  ladder.stages[1].services.storefront.digest = digest('d');
  ladder.stages[2].promotion = { allowed: true, reason: 'Promote storefront from test (needs a release-approver)' };
  return ladder;
}

function stageNamed(ladder: Ladder, name: string): LadderStage {
  return ladder.stages.find(stage => stage.name === name)!;
}

async function renderButton(options: {
  ladder: Ladder;
  stage: string;
  service?: string;
  onRequested?: () => void;
} & TestApis) {
  return renderWithPromotionsApis(
    <RequestPromotionButton
      ladder={options.ladder}
      stage={stageNamed(options.ladder, options.stage)}
      service={options.service}
      onRequested={options.onRequested ?? jest.fn()}
    />,
    {
      api: { listPromotions: jest.fn(async () => []), ...options.api },
      permissions: options.permissions,
    },
  );
}

describe('RequestPromotionButton', () => {
  it('is disabled with the refusal reason on hover when the rung cannot be promoted', async () => {
    const ladder = shopLadder();
    ladder.stages[1].promotion = {
      allowed: false,
      reason: 'storefront is not healthy in dev: Canary in progress',
    };
    await renderButton({ ladder, stage: 'test' });

    const button = await screen.findByTestId('request-promotion-test');
    expect(button).toBeDisabled();
    await userEvent.hover(button.parentElement!);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      'storefront is not healthy in dev: Canary in progress',
    );
  });

  it('is absent on the first stage', async () => {
    await renderButton({ ladder: shopLadder(), stage: 'dev' });
    expect(screen.queryByTestId('request-promotion-dev')).not.toBeInTheDocument();
  });

  it('is disabled for users the policy does not let request promotions', async () => {
    const permissions = fakePermissionApi({ 'promotions.promotion.request': DENY });
    await renderButton({ ladder: ladderWithStorefrontReadyForProd('denied'), stage: 'prod', permissions });

    await waitFor(() => expect(permissions.authorize).toHaveBeenCalled());
    const button = screen.getByTestId('request-promotion-prod');
    await waitFor(() =>
      expect(button.parentElement).toHaveAttribute('title', 'You may not request promotions'),
    );
    expect(button).toBeDisabled();
    expect(permissions.authorize).toHaveBeenCalledWith(
      expect.objectContaining({ resourceRef: 'alpha/denied' }),
    );
  });

  it('shows old → new digests, what is left out and that prod needs a release-approver', async () => {
    await renderButton({ ladder: ladderWithStorefrontReadyForProd(), stage: 'prod' });

    const button = await screen.findByTestId('request-promotion-prod');
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.click(button);

    const dialog = await screen.findByTestId('promotion-dialog');
    expect(dialog).toHaveTextContent('Target stage: prod');
    expect(dialog).toHaveTextContent('Source stage: test');
    const change = within(dialog).getByTestId('promotion-change-storefront');
    expect(
      within(change).getAllByTestId('digest').map(el => el.getAttribute('data-digest')),
    ).toEqual([digest('b'), digest('d')]);
    expect(change).toHaveTextContent('sha256:bbbbbbbbbbbb→sha256:dddddddddddd');
    expect(within(dialog).getByTestId('promotion-left-cart')).toHaveTextContent(
      "prod already carries cart's digest from test",
    );
    expect(within(dialog).getByTestId('promotion-next-step')).toHaveTextContent(
      'Needs a release-approver (members of group:default/release-approvers) before it merges',
    );
  });

  it('says a non-approval stage merges by itself once the source is healthy', async () => {
    const ladder = shopLadder();
    ladder.stages[0].services.storefront.healthy = true;
    ladder.stages[0].services.storefront.verdict = 'healthy';
    await renderButton({ ladder, stage: 'test', service: 'storefront' });

    const button = await screen.findByTestId('request-promotion-test-storefront');
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.click(button);
    expect(await screen.findByTestId('promotion-next-step')).toHaveTextContent(
      'Merges automatically once dev is healthy',
    );
  });

  it('submits the services shown, links the PR and follows its status', async () => {
    const promotion = shopPromotion();
    const requestPromotion = jest.fn(async () => ({ promotion, existing: false, plan: [] }));
    const listPromotions = jest.fn(async () => [
      shopPromotion({ status: 'awaiting-approval', statusReason: 'Needs a release-approver' }),
    ]);
    const onRequested = jest.fn();
    await renderButton({
      ladder: ladderWithStorefrontReadyForProd(),
      stage: 'prod',
      api: { requestPromotion, listPromotions },
      onRequested,
    });

    const button = await screen.findByTestId('request-promotion-prod');
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.click(button);
    await userEvent.click(await screen.findByTestId('promotion-submit'));

    const link = await screen.findByTestId('promotion-pr-link');
    expect(link).toHaveTextContent('#42');
    expect(link).toHaveAttribute('href', 'https://github.com/acme/platform/pull/42');
    expect(requestPromotion).toHaveBeenCalledWith(
      { team: 'alpha', product: 'shop' },
      { toStage: 'prod', services: ['storefront'] },
    );
    expect(onRequested).toHaveBeenCalled();
    await waitFor(() =>
      expect(screen.getByTestId('promotion-status')).toHaveTextContent('awaiting-approval'),
    );
    expect(listPromotions).toHaveBeenCalledWith({ team: 'alpha', product: 'shop' });
  });

  it('says when the same promotion was already open', async () => {
    const requestPromotion = jest.fn(async () => ({
      promotion: shopPromotion(),
      existing: true,
      plan: [],
    }));
    await renderButton({
      ladder: ladderWithStorefrontReadyForProd(),
      stage: 'prod',
      api: { requestPromotion },
    });
    const button = await screen.findByTestId('request-promotion-prod');
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.click(button);
    await userEvent.click(await screen.findByTestId('promotion-submit'));
    expect(await screen.findByTestId('promotion-result')).toHaveTextContent('already open');
  });

  it("shows the backend's reason when it refuses with 409", async () => {
    const refusal = await conflict('storefront is not healthy in test: Degraded');
    const requestPromotion = jest.fn().mockRejectedValue(refusal);
    const onRequested = jest.fn();
    await renderButton({
      ladder: ladderWithStorefrontReadyForProd(),
      stage: 'prod',
      api: { requestPromotion },
      onRequested,
    });

    const button = await screen.findByTestId('request-promotion-prod');
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.click(button);
    await userEvent.click(await screen.findByTestId('promotion-submit'));

    expect(await screen.findByTestId('promotion-error')).toHaveTextContent(
      'storefront is not healthy in test: Degraded',
    );
    expect(screen.queryByTestId('promotion-pr-link')).not.toBeInTheDocument();
    expect(onRequested).not.toHaveBeenCalled();
  });
});
