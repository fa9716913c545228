import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Ladder } from '@refplat/plugin-promotions-common';
import { conflict } from '../../__testUtils__/errors';
import { digest, shopLadder, shopPromotion } from '../../__testUtils__/ladders';
import { DENY, fakePermissionApi } from '../../__testUtils__/permissions';
import { renderWithPromotionsApis, TestApis } from '../../__testUtils__/render';
import { OpenPromotionsList } from './OpenPromotionsList';

const awaitingApproval = (product: string) =>
  shopPromotion({
    id: `p-${product}`,
    product,
    status: 'awaiting-approval',
    statusReason: 'Needs a release-approver',
  });

function ladderWith(product: string): Ladder {
  return {
    ...shopLadder(),
    product,
    approvers: ['group:default/release-approvers'],
    promotions: [
      awaitingApproval(product),
      shopPromotion({
        id: 'p-merged',
        product,
        fromStage: 'dev',
        toStage: 'test',
        status: 'merged',
        approvedBy: 'user:default/bob',
        pullRequest: { number: 41, url: 'https://github.com/acme/platform/pull/41' },
      }),
    ],
  };
}

async function renderList(options: {
  ladder: Ladder;
  onChanged?: () => void;
} & TestApis) {
  return renderWithPromotionsApis(
    <OpenPromotionsList ladder={options.ladder} onChanged={options.onChanged ?? jest.fn()} />,
    options,
  );
}

describe('OpenPromotionsList', () => {
  it('lists each promotion with stages, digests, status, people and PR', async () => {
    await renderList({ ladder: ladderWith('shop') });

    const merged = await screen.findByTestId('open-promotion-p-merged');
    expect(merged).toHaveTextContent('dev → test');
    expect(merged).toHaveTextContent('storefront:');
    expect(
      within(merged).getAllByTestId('digest').map(el => el.getAttribute('data-digest')),
    ).toEqual([digest('b'), digest('d')]);
    expect(within(merged).getByTestId('promotion-status-p-merged')).toHaveTextContent('merged');
    expect(merged).toHaveTextContent('user:default/alice');
    expect(merged).toHaveTextContent('user:default/bob');
    expect(within(merged).getByText('#41')).toHaveAttribute(
      'href',
      'https://github.com/acme/platform/pull/41',
    );
    expect(within(merged).queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
  });

  it('tells users without the approve permission who it waits for, with no button', async () => {
    const permissions = fakePermissionApi({ 'promotions.promotion.approve': DENY });
    await renderList({ ladder: ladderWith('no-approve'), permissions });

    const row = await screen.findByTestId('open-promotion-p-no-approve');
    await waitFor(() =>
      expect(row).toHaveTextContent(
        'Awaiting approval by members of group:default/release-approvers',
      ),
    );
    expect(screen.queryByTestId('approve-p-no-approve')).not.toBeInTheDocument();
  });

  it('lets a release-approver confirm the digests and requester, then approves', async () => {
    const approvePromotion = jest.fn(async () => ({
      ...awaitingApproval('approve'),
      status: 'approved' as const,
      statusReason: undefined,
      approvedBy: 'user:default/carol',
    }));
    const onChanged = jest.fn();
    await renderList({ ladder: ladderWith('approve'), api: { approvePromotion }, onChanged });

    await userEvent.click(await screen.findByTestId('approve-p-approve'));
    const dialog = await screen.findByTestId('approve-dialog');
    expect(within(dialog).getByTestId('approve-requester')).toHaveTextContent(
      'Requested by user:default/alice',
    );
    expect(within(dialog).getByTestId('approve-change-storefront')).toHaveTextContent(
      'sha256:bbbbbbbbbbbb→sha256:dddddddddddd',
    );

    await userEvent.click(within(dialog).getByTestId('approve-confirm'));
    expect(await screen.findByTestId('approve-result')).toHaveTextContent(
      'Approved by user:default/carol',
    );
    expect(approvePromotion).toHaveBeenCalledWith('p-approve');
    expect(onChanged).toHaveBeenCalled();
  });

  it('shows why the backend refused an approval', async () => {
    const approvePromotion = jest
      .fn()
      .mockRejectedValue(await conflict('You requested this promotion; another release-approver must approve it'));
    const onChanged = jest.fn();
    await renderList({ ladder: ladderWith('own'), api: { approvePromotion }, onChanged });

    await userEvent.click(await screen.findByTestId('approve-p-own'));
    await userEvent.click(await screen.findByTestId('approve-confirm'));
    expect(await screen.findByTestId('approve-error')).toHaveTextContent(
      'You requested this promotion; another release-approver must approve it',
    );
    expect(onChanged).not.toHaveBeenCalled();
  });

  it('says when nothing is in flight', async () => {
    await renderList({ ladder: shopLadder() });
    expect(await screen.findByText('No open promotions.')).toBeInTheDocument();
  });

  it('marks a rollback with a chip and names only its stage', async () => {
    const ladder = {
      ...shopLadder(),
      product: 'rollbacks',
      promotions: [
        shopPromotion({ id: 'rb-1', product: 'rollbacks', kind: 'rollback', fromStage: 'prod' }),
        shopPromotion({ id: 'p-2', product: 'rollbacks' }),
      ],
    };
    await renderList({ ladder });

    const rollback = await screen.findByTestId('open-promotion-rb-1');
    expect(within(rollback).getByTestId('rollback-chip-rb-1')).toHaveTextContent('rollback');
    expect(rollback).not.toHaveTextContent('prod → prod');
    expect(screen.getByTestId('open-promotion-p-2')).toHaveTextContent('test → prod');
    expect(screen.queryByTestId('rollback-chip-p-2')).not.toBeInTheDocument();
  });
});
