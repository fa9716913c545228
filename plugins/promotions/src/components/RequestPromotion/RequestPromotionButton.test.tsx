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
  ladder.stages[2].services.storefront.waitingToClimb = true;
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
  label?: string;
  onRequested?: () => void;
} & TestApis) {
  return renderWithPromotionsApis(
    <RequestPromotionButton
      ladder={options.ladder}
      stage={stageNamed(options.ladder, options.stage)}
      service={options.service}
      label={options.label}
      onRequested={options.onRequested ?? jest.fn()}
    />,
    {
      api: { listPromotions: jest.fn(async () => []), ...options.api },
      permissions: options.permissions,
      viewer: options.viewer,
    },
  );
}

async function openDialog(testId: string) {
  const button = await screen.findByTestId(testId);
  await waitFor(() => expect(button).toBeEnabled());
  await userEvent.click(button);
  return screen.findByTestId('promotion-dialog');
}

describe('RequestPromotionButton', () => {
  it('is absent on the first stage', async () => {
    await renderButton({ ladder: shopLadder(), stage: 'dev' });
    expect(screen.queryByTestId('request-promotion-dev')).not.toBeInTheDocument();
  });

  it('is disabled for users the policy does not let request promotions, saying so on hover', async () => {
    const permissions = fakePermissionApi({ 'promotions.promotion.request': DENY });
    await renderButton({ ladder: ladderWithStorefrontReadyForProd('denied'), stage: 'prod', permissions });
    const button = await screen.findByTestId('request-promotion-prod');
    await waitFor(() => expect(permissions.authorize).toHaveBeenCalled());
    expect(button).toBeDisabled();
    await userEvent.hover(button.parentElement!);
    await waitFor(async () =>
      expect(await screen.findByTestId('why-prod')).toHaveTextContent('You may not request promotions'),
    );
    expect(permissions.authorize).toHaveBeenCalledWith(
      expect.objectContaining({ resourceRef: 'alpha/denied' }),
    );
  });

  it("is disabled for people who are neither the Product's owners nor release-approvers", async () => {
    await renderButton({
      ladder: ladderWithStorefrontReadyForProd('not-owner'),
      stage: 'prod',
      viewer: { userEntityRef: 'user:default/dana', claims: ['user:default/dana', 'group:default/beta'] },
    });
    const button = await screen.findByTestId('request-promotion-prod');
    expect(button).toBeDisabled();
    await userEvent.hover(button.parentElement!);
    expect(await screen.findByTestId('why-prod')).toHaveTextContent(
      "Only the Product's owners (alpha) and release-approvers (release-approvers) may request promotions",
    );
  });

  it('says how many release-approvers a quorum of two needs (issue 45)', async () => {
    const ladder = ladderWithStorefrontReadyForProd();
    ladder.stages.find(stage => stage.name === 'prod')!.approvalQuorum = 2;
    await renderButton({ ladder, stage: 'prod' });
    const dialog = await openDialog('request-promotion-prod');
    expect(within(dialog).getByTestId('promotion-next-step')).toHaveTextContent(
      'Needs 2 release-approvers (members of release-approvers) before it merges',
    );
  });

  it('shows old → new digests, what is left out and that prod needs a release-approver', async () => {
    await renderButton({ ladder: ladderWithStorefrontReadyForProd(), stage: 'prod' });
    const dialog = await openDialog('request-promotion-prod');
    expect(dialog).toHaveTextContent('Target stage: prod');
    expect(dialog).toHaveTextContent('Source stage: test');
    const change = within(dialog).getByTestId('promotion-change-storefront');
    expect(
      within(change).getAllByTestId('digest').map(el => el.getAttribute('data-digest')),
    ).toEqual([digest('b'), digest('d')]);
    expect(change).toHaveTextContent('bbbbbbb→ddddddd');
    expect(within(dialog).getByTestId('promotion-left-cart')).toHaveTextContent(
      "prod already carries cart's digest from test",
    );
    const nextStep = within(dialog).getByTestId('promotion-next-step');
    expect(nextStep).toHaveTextContent('Needs a release-approver (members of release-approvers) before it merges');
    // Groups by name, linked to their page; no entity refs anywhere in the dialog.
    expect(within(nextStep).getByRole('link', { name: 'release-approvers' })).toHaveAttribute(
      'href',
      '/catalog/default/group/release-approvers',
    );
    expect(dialog).not.toHaveTextContent(/(user|group):default\//);
    expect(within(dialog).queryByTestId('promotion-open-notice')).not.toBeInTheDocument();
  });

  it('says a non-approval stage merges by itself once the source is healthy', async () => {
    const ladder = shopLadder();
    ladder.stages[0].services.storefront.healthy = true;
    ladder.stages[0].services.storefront.verdict = 'healthy';
    await renderButton({ ladder, stage: 'test', service: 'storefront' });
    await openDialog('request-promotion-test-storefront');
    expect(await screen.findByTestId('promotion-next-step')).toHaveTextContent(
      'Merges automatically once dev is healthy',
    );
  });

  it('submits the services shown, links the PR and follows its status in words', async () => {
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
    await openDialog('request-promotion-prod');
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
      expect(screen.getByTestId('promotion-status')).toHaveTextContent('Awaiting approval'),
    );
    expect(screen.getByTestId('promotion-status')).toHaveAttribute('data-status', 'awaiting-approval');
    expect(listPromotions).toHaveBeenCalledWith({ team: 'alpha', product: 'shop' });
  });

  it("says 'opening…' until the promotion's pull request exists, never '#0'", async () => {
    const opening = shopPromotion({ pullRequest: { number: 0, url: '' } });
    const requestPromotion = jest.fn(async () => ({ promotion: opening, existing: false, plan: [] }));
    const listPromotions = jest
      .fn()
      .mockResolvedValueOnce([opening])
      .mockResolvedValue([shopPromotion()]);
    await renderButton({
      ladder: ladderWithStorefrontReadyForProd('opening'),
      stage: 'prod',
      api: { requestPromotion, listPromotions },
    });
    await openDialog('request-promotion-prod');
    await userEvent.click(await screen.findByTestId('promotion-submit'));
    const result = await screen.findByTestId('promotion-result');
    expect(result).toHaveTextContent('opening…');
    expect(result).not.toHaveTextContent('#0');
    expect(await screen.findByTestId('promotion-pr-link', {}, { timeout: 15_000 })).toHaveTextContent('#42');
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
    await openDialog('request-promotion-prod');
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
    await openDialog('request-promotion-prod');
    await userEvent.click(await screen.findByTestId('promotion-submit'));
    expect(await screen.findByTestId('promotion-error')).toHaveTextContent(
      'storefront is not healthy in test: Degraded',
    );
    expect(screen.queryByTestId('promotion-pr-link')).not.toBeInTheDocument();
    expect(onRequested).not.toHaveBeenCalled();
  });
});

describe('Replacing the promotion in flight', () => {
  /** prod awaits approval of storefront e (#42), while test now has storefront d. */
  function ladderWithOpenProdPromotion(product: string): Ladder {
    const ladder = ladderWithStorefrontReadyForProd(product);
    ladder.promotions = [
      shopPromotion({
        product,
        status: 'awaiting-approval',
        requestedBy: 'user:default/carol',
        services: { storefront: digest('e') },
      }),
    ];
    return ladder;
  }

  it('shows the open promotion and submits only once the user ticks "Replace it"', async () => {
    const requestPromotion = jest.fn(async () => ({
      promotion: shopPromotion({ id: 'p-2', pullRequest: { number: 43, url: 'https://github.com/acme/platform/pull/43' } }),
      existing: false,
      plan: [],
    }));
    await renderButton({
      ladder: ladderWithOpenProdPromotion('replace'),
      stage: 'prod',
      label: 'Replace…',
      api: { requestPromotion },
    });
    expect(await screen.findByTestId('request-promotion-prod')).toHaveTextContent('Replace…');
    const dialog = await openDialog('request-promotion-prod');

    const notice = within(dialog).getByTestId('promotion-open-notice');
    expect(notice).toHaveTextContent(/A promotion into prod is already awaiting approval: #42.*, requested by carol\./);
    expect(within(notice).getAllByTestId('digest').map(el => el.getAttribute('data-digest'))).toEqual([
      digest('b'),
      digest('e'),
    ]);
    const submit = within(dialog).getByTestId('promotion-submit');
    expect(submit).toHaveTextContent('Replace #42');
    expect(submit).toBeDisabled();

    await userEvent.click(within(dialog).getByTestId('promotion-replace'));
    expect(submit).toBeEnabled();
    await userEvent.click(submit);
    expect(requestPromotion).toHaveBeenCalledWith(
      { team: 'alpha', product: 'replace' },
      { toStage: 'prod', services: ['storefront'] },
    );
    expect(await screen.findByTestId('promotion-pr-link')).toHaveTextContent('#43');
  });

  it('asks nothing more when the open promotion carries the same digests', async () => {
    const ladder = ladderWithOpenProdPromotion('same');
    ladder.promotions[0].services = { storefront: digest('d') };
    await renderButton({ ladder, stage: 'prod' });
    const dialog = await openDialog('request-promotion-prod');
    expect(within(dialog).getByTestId('promotion-open-notice')).toHaveTextContent(
      'It carries these digests already: submitting finds it.',
    );
    expect(within(dialog).queryByTestId('promotion-replace')).not.toBeInTheDocument();
    expect(within(dialog).getByTestId('promotion-submit')).toBeEnabled();
  });

  describe('into a frozen stage', () => {
    const FREEZE_REASON = 'prod is frozen by holidays until Tue 5 Jan 2027, 00:00 Europe/Berlin: Holiday freeze';
    function frozenLadder(product = 'shop'): Ladder {
      const ladder = ladderWithStorefrontReadyForProd(product);
      const prod = stageNamed(ladder, 'prod');
      prod.freeze = { name: 'holidays', reason: 'Holiday freeze', timezone: 'Europe/Berlin', start: '2026-12-19T23:00:00.000Z', end: '2027-01-04T23:00:00.000Z' };
      prod.guards = [{ guard: 'freeze', verdict: 'block', reason: FREEZE_REASON }];
      return ladder;
    }
    const ALICE = {
      userEntityRef: 'user:default/alice',
      claims: ['user:default/alice', 'group:default/release-approvers'],
    };

    it('is disabled for people who are not release-approvers, saying why', async () => {
      await renderButton({ ladder: frozenLadder('frozen-bob'), stage: 'prod' });
      const button = await screen.findByTestId('request-promotion-prod');
      expect(button).toBeDisabled();
      await userEvent.hover(button.parentElement!);
      await waitFor(async () =>
        expect(await screen.findByTestId('why-prod')).toHaveTextContent(
          `${FREEZE_REASON}. Only release-approvers (release-approvers) may override it`,
        ),
      );
    });

    it('lets a release-approver override the freeze with a reason, which it sends', async () => {
      const requestPromotion = jest.fn(async () => ({ promotion: shopPromotion(), existing: false, plan: [] }));
      await renderButton({ ladder: frozenLadder('frozen-alice'), stage: 'prod', viewer: ALICE, api: { requestPromotion } });
      const dialog = await openDialog('request-promotion-prod');
      const override = within(dialog).getByTestId('promotion-override');
      expect(override).toHaveTextContent('Override freeze');
      expect(override).toHaveTextContent(`freeze: ${FREEZE_REASON}`);
      const submit = within(dialog).getByTestId('promotion-submit');
      expect(submit).toHaveTextContent('Override freeze');
      expect(submit).toBeDisabled();

      // Named by its label, for screen readers and speech users.
      expect(within(dialog).getByRole('textbox', { name: /Reason for the override/ })).toBe(
        within(dialog).getByTestId('promotion-override-reason'),
      );
      await userEvent.type(within(dialog).getByTestId('promotion-override-reason'), '  ');
      expect(submit).toBeDisabled();
      await userEvent.type(within(dialog).getByTestId('promotion-override-reason'), 'Checkout outage hotfix');
      expect(submit).toBeEnabled();
      await userEvent.click(submit);

      await waitFor(() =>
        expect(requestPromotion).toHaveBeenCalledWith(
          { team: 'alpha', product: 'frozen-alice' },
          { toStage: 'prod', services: ['storefront'], override: { reason: 'Checkout outage hotfix' } },
        ),
      );
    });

    it("keeps Promote disabled for a release-approver where a block is one an override does not lift (provenance in enforce)", async () => {
      const ladder = frozenLadder('unsigned-alice');
      const UNSIGNED = 'storefront sha256:dddddddddddd is not signed by the build-sign workflow';
      stageNamed(ladder, 'prod').guards!.push({ guard: 'provenance', verdict: 'block', reason: UNSIGNED, overridable: false });
      await renderButton({ ladder, stage: 'prod', viewer: ALICE });
      const button = await screen.findByTestId('request-promotion-prod');
      expect(button).toBeDisabled();
      await userEvent.hover(button.parentElement!);
      await waitFor(async () =>
        expect(await screen.findByTestId('why-prod')).toHaveTextContent(
          `${FREEZE_REASON}; ${UNSIGNED}. An override does not lift provenance`,
        ),
      );
    });

    it('sends no override when nothing blocks', async () => {
      const requestPromotion = jest.fn(async () => ({ promotion: shopPromotion(), existing: false, plan: [] }));
      await renderButton({ ladder: ladderWithStorefrontReadyForProd('open-alice'), stage: 'prod', viewer: ALICE, api: { requestPromotion } });
      const dialog = await openDialog('request-promotion-prod');
      expect(within(dialog).queryByTestId('promotion-override')).not.toBeInTheDocument();
      await userEvent.click(within(dialog).getByTestId('promotion-submit'));
      await waitFor(() =>
        expect(requestPromotion).toHaveBeenCalledWith(
          { team: 'alpha', product: 'open-alice' },
          { toStage: 'prod', services: ['storefront'], override: undefined },
        ),
      );
    });
  });
});
