import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LadderStage, StageHistoryEntry } from '@refplat/plugin-promotions-common';
import { conflict } from '../../__testUtils__/errors';
import { digest, shopLadder, shopPromotion } from '../../__testUtils__/ladders';
import { DENY, fakePermissionApi } from '../../__testUtils__/permissions';
import { renderWithPromotionsApis, TestApis } from '../../__testUtils__/render';
import { StageHistoryButton } from './StageHistoryButton';

/** prod now runs storefront d and cart c, as its newest history entry says. */
function prodNow(): LadderStage {
  const prod = shopLadder().stages[2];
  prod.services.storefront.digest = digest('d');
  return prod;
}

const entries: StageHistoryEntry[] = [
  {
    revision: 'r3',
    author: 'promotions-bot',
    date: '2026-11-30T10:00:00.000Z',
    message: 'Promote storefront to prod (#42)',
    services: { storefront: digest('d'), cart: digest('c') },
  },
  {
    revision: 'r2',
    author: 'promotions-bot',
    date: '2026-11-29T10:00:00.000Z',
    message: 'Promote storefront and cart to prod (#40)',
    services: { storefront: digest('b'), cart: digest('e') },
  },
  {
    revision: 'r1',
    author: 'alice',
    date: '2026-11-28T10:00:00.000Z',
    message: 'Initial prod release',
    services: { storefront: digest('b'), cart: digest('c') },
  },
];

async function openHistory(options: {
  product: string;
  current?: LadderStage;
  onRolledBack?: () => void;
} & TestApis) {
  const current = options.current ?? prodNow();
  await renderWithPromotionsApis(
    <StageHistoryButton
      product={{ team: 'alpha', product: options.product }}
      stage={current.name}
      current={current}
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

describe('Roll back from the stage history', () => {
  it('offers a rollback only for entries that differ from what the stage runs now', async () => {
    const dialog = await openHistory({ product: 'differs' });
    expect(await within(dialog).findByTestId('rollback-r1')).toBeInTheDocument();
    expect(within(dialog).getByTestId('rollback-r2')).toBeInTheDocument();
    expect(within(dialog).queryByTestId('rollback-r3')).not.toBeInTheDocument();
  });

  it('confirms current → earlier digest of each differing service, requests the rollback and links the PR', async () => {
    const requestRollback = jest.fn(async () => ({
      promotion: shopPromotion({
        id: 'rb-1',
        kind: 'rollback',
        fromStage: 'prod',
        status: 'awaiting-approval',
        pullRequest: { number: 43, url: 'https://github.com/acme/platform/pull/43' },
      }),
      existing: false,
      plan: [],
    }));
    const onRolledBack = jest.fn();
    const dialog = await openHistory({ product: 'rollback', api: { requestRollback }, onRolledBack });

    await userEvent.click(await within(dialog).findByTestId('rollback-r2'));
    const confirm = await screen.findByTestId('rollback-dialog');
    expect(within(confirm).getByTestId('rollback-change-storefront')).toHaveTextContent(
      'ddddddd→bbbbbbb',
    );
    expect(within(confirm).getByTestId('rollback-change-cart')).toHaveTextContent(
      'ccccccc→eeeeeee',
    );
    const nextStep = within(confirm).getByTestId('rollback-next-step');
    expect(nextStep).toHaveTextContent('Needs a release-approver');
    expect(nextStep).toHaveTextContent(
      'The auto-promoter will hold storefront, cart in prod until someone resumes it',
    );

    await userEvent.click(within(confirm).getByTestId('rollback-confirm'));
    expect(requestRollback).toHaveBeenCalledWith(
      { team: 'alpha', product: 'rollback' },
      { stage: 'prod', services: { storefront: digest('b'), cart: digest('e') } },
    );
    const link = await within(confirm).findByTestId('rollback-pr-link');
    expect(link).toHaveTextContent('#43');
    expect(link).toHaveAttribute('href', 'https://github.com/acme/platform/pull/43');
    expect(onRolledBack).toHaveBeenCalled();
    expect(within(confirm).queryByTestId('rollback-confirm')).not.toBeInTheDocument();
  });

  it('rolls back only the services that differ, and merges without waiting below approval stages', async () => {
    const test = shopLadder().stages[1];
    test.services.storefront.digest = digest('d');
    const requestRollback = jest.fn(async () => ({
      promotion: shopPromotion({ kind: 'rollback', fromStage: 'test', toStage: 'test' }),
      existing: false,
      plan: [],
    }));
    const dialog = await openHistory({ product: 'test-stage', current: test, api: { requestRollback } });

    await userEvent.click(await within(dialog).findByTestId('rollback-r1'));
    const confirm = await screen.findByTestId('rollback-dialog');
    expect(within(confirm).queryByTestId('rollback-change-cart')).not.toBeInTheDocument();
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

    await userEvent.click(await within(dialog).findByTestId('rollback-r1'));
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
    const button = await within(dialog).findByTestId('rollback-r1');
    await waitFor(() => expect(button).toBeDisabled());
    await userEvent.hover(button.parentElement!);
    expect(await screen.findByTestId('rollback-why-r1')).toHaveTextContent('You may not request rollbacks');
  });

  it("is disabled for people who are neither the Product's owners nor release-approvers", async () => {
    const dialog = await openHistory({
      product: 'not-owner',
      viewer: { userEntityRef: 'user:default/dana', claims: ['user:default/dana', 'group:default/beta'] },
    });
    const button = await within(dialog).findByTestId('rollback-r1');
    expect(button).toBeDisabled();
    await userEvent.hover(button.parentElement!);
    expect(await screen.findByTestId('rollback-why-r1')).toHaveTextContent(
      "Only the Product's owners (alpha) and release-approvers (release-approvers) may request rollbacks",
    );
  });
});
