import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LadderStage, StageHistoryEntry } from '@refplat/plugin-promotions-common';
import { conflict } from '../../__testUtils__/errors';
import { digest, shopLadder, shopPromotion } from '../../__testUtils__/ladders';
import { DENY, fakePermissionApi } from '../../__testUtils__/permissions';
import { renderWithPromotionsApis, TestApis } from '../../__testUtils__/render';
import { StageHistoryButton } from './StageHistoryButton';

/** Commits of prod's Release record, as git names them. */
const [R1, R2, R3] = ['1', '2', '3'].map(n => n.repeat(40));

/** prod now runs storefront d and cart e, as its newest history entry says. */
function prodNow(): LadderStage {
  const prod = shopLadder().stages[2];
  prod.services.storefront.digest = digest('d');
  prod.services.cart.digest = digest('e');
  return prod;
}

/** cart went c → e, then a bad storefront d replaced b. */
const entries: StageHistoryEntry[] = [
  {
    revision: R3,
    author: 'promotions-bot',
    date: '2026-11-30T10:00:00.000Z',
    message: 'Promote storefront to prod (#42)',
    services: { storefront: digest('d'), cart: digest('e') },
    changes: [{ service: 'storefront', from: digest('b'), to: digest('d') }],
  },
  {
    revision: R2,
    author: 'promotions-bot',
    date: '2026-11-29T10:00:00.000Z',
    message: 'Promote cart to prod (#40)',
    services: { storefront: digest('b'), cart: digest('e') },
    changes: [{ service: 'cart', from: digest('c'), to: digest('e') }],
  },
  {
    revision: R1,
    author: 'alice',
    date: '2026-11-28T10:00:00.000Z',
    message: 'Initial prod release',
    services: { storefront: digest('b'), cart: digest('c') },
    changes: [
      { service: 'storefront', to: digest('b') },
      { service: 'cart', to: digest('c') },
    ],
  },
];

const opened = (overrides: Parameters<typeof shopPromotion>[0] = {}) =>
  jest.fn(async () => ({
    promotion: shopPromotion({ kind: 'rollback', fromStage: 'prod', ...overrides }),
    existing: false,
    plan: [],
  }));

async function openHistory(options: {
  product: string;
  current?: LadderStage;
  bottomRung?: boolean;
  onRolledBack?: () => void;
} & TestApis) {
  const current = options.current ?? prodNow();
  await renderWithPromotionsApis(
    <StageHistoryButton
      product={{ team: 'alpha', product: options.product }}
      stage={current.name}
      current={current}
      bottomRung={options.bottomRung}
      onRolledBack={options.onRolledBack ?? jest.fn()}
    />,
    {
      api: { getStageHistory: jest.fn(async () => entries), ...options.api },
      permissions: options.permissions,
      viewer: options.viewer,
    },
  );
  await userEvent.click(screen.getByTestId(`history-${current.name}`));
  return screen.findByTestId('history-dialog');
}

describe('Revert a change or restore a state from the stage history', () => {
  it('offers each way back only where it would change something, and says why not where it cannot', async () => {
    const dialog = await openHistory({ product: 'offers' });
    // The newest row: its change can be reverted; its state is the stage's now.
    expect(await within(dialog).findByTestId(`rollback-revert-${R3}`)).toHaveTextContent('Revert this change');
    expect(within(dialog).queryByTestId(`rollback-restore-${R3}`)).not.toBeInTheDocument();
    expect(within(dialog).getByTestId(`rollback-revert-${R2}`)).toBeEnabled();
    expect(within(dialog).getByTestId(`rollback-restore-${R2}`)).toHaveTextContent('Restore this state');
    expect(within(dialog).getByTestId(`rollback-restore-${R1}`)).toBeEnabled();
    // The first commit added both Services: nothing earlier to go back to.
    const revertFirst = within(dialog).getByTestId(`rollback-revert-${R1}`);
    expect(revertFirst).toBeDisabled();
    await userEvent.hover(revertFirst.parentElement!);
    expect(await screen.findByTestId(`rollback-why-revert-${R1}`)).toHaveTextContent(
      'Nothing to revert. storefront: added by this change: a rollback writes digests and cannot remove a Service; cart: added by this change',
    );
  });

  it('shows each row as a change with the commit the dialog names', async () => {
    const dialog = await openHistory({ product: 'rows' });
    const row = await within(dialog).findByTestId(`history-entry-${R3}`);
    expect(within(row).getByTestId(`history-commit-${R3}`)).toHaveTextContent(/^3333333$/);
    expect(within(row).getByTestId('history-change-storefront')).toHaveTextContent('storefront: bbbbbbb→ddddddd');
    expect(within(row).queryByTestId('history-change-cart')).not.toBeInTheDocument();
    expect(row).toHaveTextContent('cart: eeeeeee');
  });

  it('reverts the row that brought the bad storefront: storefront alone goes back, cart stays', async () => {
    const requestRollback = opened();
    const dialog = await openHistory({ product: 'revert', api: { requestRollback } });

    await userEvent.click(await within(dialog).findByTestId(`rollback-revert-${R3}`));
    const confirm = await screen.findByTestId('rollback-dialog');
    expect(within(confirm).getByRole('heading')).toHaveTextContent('Revert 3333333 in prod');
    expect(within(confirm).getAllByTestId(/^rollback-change-/)).toHaveLength(1);
    expect(within(confirm).getByTestId('rollback-change-storefront')).toHaveTextContent('ddddddd→bbbbbbb');
    expect(within(confirm).queryByTestId('rollback-skipped')).not.toBeInTheDocument();

    await userEvent.click(within(confirm).getByTestId('rollback-confirm'));
    expect(requestRollback).toHaveBeenCalledWith(
      { team: 'alpha', product: 'revert' },
      { stage: 'prod', services: { storefront: digest('b') } },
    );
    expect(await within(confirm).findByTestId('rollback-pr-link')).toBeInTheDocument();
  });

  it("says CI's next release replaces a rollback on the bottom rung, which holds nothing (issue 45)", async () => {
    const dialog = await openHistory({ product: 'bottom', api: { requestRollback: opened() }, bottomRung: true });

    await userEvent.click(await within(dialog).findByTestId(`rollback-restore-${R1}`));
    const nextStep = within(await screen.findByTestId('rollback-dialog')).getByTestId('rollback-next-step');
    expect(nextStep).toHaveTextContent("CI's next release into prod replaces it.");
    expect(nextStep).not.toHaveTextContent('hold');
  });

  it('restores the state after the first commit: current → earlier digest of each differing Service, then links the PR', async () => {
    const requestRollback = opened({
      id: 'rb-1',
      status: 'awaiting-approval',
      pullRequest: { number: 43, url: 'https://github.com/acme/platform/pull/43' },
    });
    const onRolledBack = jest.fn();
    const dialog = await openHistory({ product: 'restore', api: { requestRollback }, onRolledBack });

    await userEvent.click(await within(dialog).findByTestId(`rollback-restore-${R1}`));
    const confirm = await screen.findByTestId('rollback-dialog');
    expect(within(confirm).getByRole('heading')).toHaveTextContent('Restore prod to the state after 1111111');
    expect(within(confirm).getByTestId('rollback-change-storefront')).toHaveTextContent('ddddddd→bbbbbbb');
    expect(within(confirm).getByTestId('rollback-change-cart')).toHaveTextContent('eeeeeee→ccccccc');
    const nextStep = within(confirm).getByTestId('rollback-next-step');
    expect(nextStep).toHaveTextContent('Needs a release-approver');
    expect(nextStep).toHaveTextContent(
      'The auto-promoter will hold storefront, cart in prod until someone resumes it',
    );

    await userEvent.click(within(confirm).getByTestId('rollback-confirm'));
    expect(requestRollback).toHaveBeenCalledWith(
      { team: 'alpha', product: 'restore' },
      { stage: 'prod', services: { storefront: digest('b'), cart: digest('c') } },
    );
    const link = await within(confirm).findByTestId('rollback-pr-link');
    expect(link).toHaveTextContent('#43');
    expect(link).toHaveAttribute('href', 'https://github.com/acme/platform/pull/43');
    expect(onRolledBack).toHaveBeenCalled();
    expect(within(confirm).queryByTestId('rollback-confirm')).not.toBeInTheDocument();
  });

  it('restores only the Services that differ, says which it leaves, and merges without waiting below approval stages', async () => {
    const test = shopLadder().stages[1];
    test.services.storefront.digest = digest('d');
    test.services.checkout = { ...test.services.cart, digest: digest('f') };
    const requestRollback = opened({ fromStage: 'test', toStage: 'test' });
    const dialog = await openHistory({ product: 'test-stage', current: test, api: { requestRollback } });

    await userEvent.click(await within(dialog).findByTestId(`rollback-restore-${R1}`));
    const confirm = await screen.findByTestId('rollback-dialog');
    expect(within(confirm).queryByTestId('rollback-change-cart')).not.toBeInTheDocument();
    expect(within(confirm).getByTestId('rollback-skipped-checkout')).toHaveTextContent(
      'checkout: not in this state: a rollback writes digests and cannot remove a Service',
    );
    expect(within(confirm).getByTestId('rollback-next-step')).toHaveTextContent(
      'Merges without waiting for another stage',
    );
    await userEvent.click(within(confirm).getByTestId('rollback-confirm'));
    expect(requestRollback).toHaveBeenCalledWith(
      { team: 'alpha', product: 'test-stage' },
      { stage: 'test', services: { storefront: digest('b') } },
    );
    expect(await within(confirm).findByTestId('rollback-pr-link')).toHaveTextContent('#42');
  });

  it('shows why the backend refused a rollback', async () => {
    const requestRollback = jest
      .fn()
      .mockRejectedValue(
        await conflict(`Rollback refused: ${digest('b')} is not in the recent history of storefront in prod`),
      );
    const onRolledBack = jest.fn();
    const dialog = await openHistory({ product: 'refused', api: { requestRollback }, onRolledBack });

    await userEvent.click(await within(dialog).findByTestId(`rollback-revert-${R3}`));
    await userEvent.click(await screen.findByTestId('rollback-confirm'));
    expect(await screen.findByTestId('rollback-error')).toHaveTextContent(
      'Rollback refused: sha256:bbbb',
    );
    expect(screen.getByTestId('rollback-error')).toHaveTextContent('is not in the recent history of storefront in prod');
    expect(screen.queryByTestId('rollback-pr-link')).not.toBeInTheDocument();
    expect(onRolledBack).not.toHaveBeenCalled();
  });

  it('is disabled for users who may not request promotions, saying so on hover', async () => {
    const permissions = fakePermissionApi({ 'promotions.promotion.request': DENY });
    const dialog = await openHistory({ product: 'no-rollback', permissions });
    const button = await within(dialog).findByTestId(`rollback-restore-${R1}`);
    await waitFor(() => expect(button).toBeDisabled());
    expect(within(dialog).getByTestId(`rollback-revert-${R3}`)).toBeDisabled();
    await userEvent.hover(button.parentElement!);
    expect(await screen.findByTestId(`rollback-why-restore-${R1}`)).toHaveTextContent('You may not request rollbacks');
  });

  it("is disabled for people who are neither the Product's owners nor release-approvers", async () => {
    const dialog = await openHistory({
      product: 'not-owner',
      viewer: { userEntityRef: 'user:default/dana', claims: ['user:default/dana', 'group:default/beta'] },
    });
    const button = await within(dialog).findByTestId(`rollback-revert-${R3}`);
    expect(button).toBeDisabled();
    await userEvent.hover(button.parentElement!);
    expect(await screen.findByTestId(`rollback-why-revert-${R3}`)).toHaveTextContent(
      "Only the Product's owners (alpha) and release-approvers (release-approvers) may request rollbacks",
    );
  });
});
