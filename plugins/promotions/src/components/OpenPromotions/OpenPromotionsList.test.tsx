import { useState } from 'react';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Ladder } from '@refplat/plugin-promotions-common';
import { conflict } from '../../__testUtils__/errors';
import { digest, shopLadder, shopPromotion } from '../../__testUtils__/ladders';
import { DENY, fakePermissionApi } from '../../__testUtils__/permissions';
import { ALICE, renderWithPromotionsApis, TestApis } from '../../__testUtils__/render';
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

const CAROL = {
  userEntityRef: 'user:default/carol',
  claims: ['user:default/carol', 'group:default/release-approvers'],
};

async function renderList(options: {
  ladder: Ladder;
  onChanged?: () => void;
} & TestApis) {
  return renderWithPromotionsApis(
    <OpenPromotionsList ladder={options.ladder} onChanged={options.onChanged ?? jest.fn()} />,
    options,
  );
}

/**
 * The list on a ladder that a signal refreshes: `dropRow` is that refresh after the promotion
 * left the flight (merged or closed), which drops its row.
 */
function listRefreshedOnSignals(product: string) {
  const refresh = { dropRow: () => undefined as void };
  const ListRefreshedOnSignals = () => {
    const [ladder, setLadder] = useState(ladderWith(product));
    refresh.dropRow = () => setLadder(current => ({ ...current, promotions: [] }));
    return <OpenPromotionsList ladder={ladder} onChanged={jest.fn()} />;
  };
  return { ListRefreshedOnSignals, dropRow: () => refresh.dropRow() };
}

describe('OpenPromotionsList', () => {
  it('lists each promotion with stages, digests, status and people in words, and the PR', async () => {
    await renderList({ ladder: ladderWith('shop') });

    const merged = await screen.findByTestId('open-promotion-p-merged');
    expect(merged).toHaveTextContent('dev → test');
    expect(merged).toHaveTextContent('storefront: bbbbbbb→ddddddd');
    expect(
      within(merged).getAllByTestId('digest').map(el => el.getAttribute('data-digest')),
    ).toEqual([digest('b'), digest('d')]);
    expect(within(merged).getByTestId('promotion-status-p-merged')).toHaveTextContent('Merged');
    expect(screen.getByTestId('promotion-status-p-shop')).toHaveTextContent('Awaiting approval');
    // People by the catalog's presentation of their refs, never the raw refs.
    expect(within(merged).getByTestId('requested-by-p-merged')).toHaveTextContent('Requested by alice');
    expect(within(merged).getByTestId('approved-by-p-merged')).toHaveTextContent('Approved by bob');
    expect(merged).not.toHaveTextContent('user:default/');
    expect(screen.getAllByRole('columnheader').map(header => header.textContent)).toEqual([
      'Promotion',
      'Status',
      'People',
      'Action',
    ]);
    expect(within(merged).getByText('#41')).toHaveAttribute(
      'href',
      'https://github.com/acme/platform/pull/41',
    );
    expect(within(merged).queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
  });

  it('tells people who are not release-approvers who it waits for, with no button', async () => {
    await renderList({ ladder: ladderWith('not-approver') });

    const row = await screen.findByTestId('open-promotion-p-not-approver');
    await waitFor(() =>
      expect(row).toHaveTextContent('Awaiting approval by members of release-approvers'),
    );
    expect(screen.queryByTestId('approve-p-not-approver')).not.toBeInTheDocument();
  });

  it('tells a release-approver whom the permission policy denies, with no button', async () => {
    const permissions = fakePermissionApi({ 'promotions.promotion.approve': DENY });
    await renderList({ ladder: ladderWith('no-approve'), permissions, viewer: CAROL });

    const row = await screen.findByTestId('open-promotion-p-no-approve');
    await waitFor(() => expect(row).toHaveTextContent('The permission policy does not let you approve'));
    expect(screen.queryByTestId('approve-p-no-approve')).not.toBeInTheDocument();
  });

  it('never offers an enabled Approve to the one who requested it, and says why', async () => {
    const approvePromotion = jest.fn();
    await renderList({ ladder: ladderWith('own-request'), api: { approvePromotion }, viewer: ALICE });

    const approve = await screen.findByTestId('approve-p-own-request');
    expect(approve).toBeDisabled();
    expect(screen.getByTestId('approve-why-p-own-request')).toHaveTextContent(
      'You requested this promotion: another release-approver must approve it',
    );
    expect(approvePromotion).not.toHaveBeenCalled();
  });

  const approvedByCarol = (product: string, commanderNeeded = false): Ladder => {
    const ladder = ladderWith(product);
    ladder.promotions[0].approval = {
      headSha: 'c'.repeat(40),
      approvals: [{ approver: CAROL.userEntityRef, at: '2026-12-01T10:00:00.000Z', role: 'release-approver' }],
      quorum: 2,
      quorumApprovers: [CAROL.userEntityRef],
      progress: '1 of 2',
      quorumMet: false,
      commanderNeeded,
    };
    return ladder;
  };

  it('disables Approve for one who approved its head already, saying what it waits for on hover too', async () => {
    const approvePromotion = jest.fn();
    await renderList({ ladder: approvedByCarol('approved-once'), api: { approvePromotion }, viewer: CAROL });

    const approve = await screen.findByTestId('approve-p-approved-once');
    expect(approve).toBeDisabled();
    const reason = 'You approved this head already; waiting for 1 more approver';
    expect(screen.getByTestId('approve-why-p-approved-once')).toHaveTextContent(reason);
    await userEvent.hover(approve.parentElement!);
    expect(await screen.findByTestId('approve-reason-p-approved-once')).toHaveTextContent(reason);
    expect(approvePromotion).not.toHaveBeenCalled();
  });

  it('shows where the promotion stands against its quorum, and lets another approver add theirs', async () => {
    const dana = { userEntityRef: 'user:default/dana', claims: ['user:default/dana', 'group:default/release-approvers'] };
    await renderList({ ladder: approvedByCarol('half', true), viewer: dana });

    expect(await screen.findByTestId('approval-progress-p-half')).toHaveTextContent(
      "1 of 2 approvals; an incident commander’s needed too",
    );
    await waitFor(() => expect(screen.getByTestId('approve-p-half')).toBeEnabled());
    expect(screen.queryByTestId('approve-why-p-half')).not.toBeInTheDocument();
    await userEvent.hover(screen.getByTestId('approval-progress-p-half'));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('carol');
  });

  it('shows no approval count for a promotion the ladder gives none for', async () => {
    await renderList({ ladder: ladderWith('uncounted') });
    await screen.findByTestId('open-promotion-p-uncounted');
    expect(screen.queryByTestId('approval-progress-p-uncounted')).not.toBeInTheDocument();
  });

  it('waits for the pull request before offering Approve', async () => {
    const ladder = ladderWith('opening');
    ladder.promotions[0].pullRequest = { number: 0, url: '' };
    await renderList({ ladder, viewer: CAROL });

    expect(await screen.findByTestId('approve-p-opening')).toBeDisabled();
    expect(screen.getByTestId('approve-why-p-opening')).toHaveTextContent(
      'Its pull request is still being opened',
    );
    expect(screen.getByTestId('open-promotion-p-opening')).toHaveTextContent('opening…');
  });

  it('lets a release-approver confirm the digests and requester, then approves', async () => {
    const approvePromotion = jest.fn(async () => ({
      ...awaitingApproval('approve'),
      status: 'approved' as const,
      statusReason: undefined,
      approvedBy: 'user:default/carol',
    }));
    const onChanged = jest.fn();
    await renderList({ ladder: ladderWith('approve'), api: { approvePromotion }, onChanged, viewer: CAROL });

    await userEvent.click(await screen.findByTestId('approve-p-approve'));
    const dialog = await screen.findByTestId('approve-dialog');
    expect(within(dialog).getByTestId('approve-requester')).toHaveTextContent('Requested by alice in #42');
    expect(within(dialog).getByTestId('approve-change-storefront')).toHaveTextContent('bbbbbbb→ddddddd');

    await userEvent.click(within(dialog).getByTestId('approve-confirm'));
    expect(await screen.findByTestId('approve-result')).toHaveTextContent('Approved by carol; now Approved');
    expect(approvePromotion).toHaveBeenCalledWith('p-approve');
    expect(onChanged).toHaveBeenCalled();
  });

  it('shows the outcome of an approval whose merge refreshed the ladder, and dropped the row, before the answer came', async () => {
    const { ListRefreshedOnSignals, dropRow } = listRefreshedOnSignals('raced');
    const approvePromotion = jest.fn(async () => {
      // The Gate merged and the ladder refreshed on its signal, while the approval's answer was on its way.
      act(() => dropRow());
      return { ...awaitingApproval('raced'), status: 'merged' as const, statusReason: undefined, approvedBy: 'user:default/carol' };
    });
    await renderWithPromotionsApis(<ListRefreshedOnSignals />, { api: { approvePromotion }, viewer: CAROL });

    await userEvent.click(await screen.findByTestId('approve-p-raced'));
    await userEvent.click(within(await screen.findByTestId('approve-dialog')).getByTestId('approve-confirm'));
    expect(await screen.findByTestId('approve-result')).toHaveTextContent('Approved by carol; now Merged');
    expect(screen.queryByTestId('open-promotion-p-raced')).not.toBeInTheDocument();
  });

  it('keeps the withdraw dialog, with its reason, when a refresh drops the row', async () => {
    const { ListRefreshedOnSignals, dropRow } = listRefreshedOnSignals('dropped');
    await renderWithPromotionsApis(<ListRefreshedOnSignals />, {
      viewer: { userEntityRef: 'user:default/alice', claims: ['user:default/alice', 'group:default/alpha'] },
    });

    await userEvent.click(await screen.findByTestId('withdraw-p-dropped'));
    await userEvent.type(within(await screen.findByTestId('withdraw-dialog')).getByTestId('withdraw-reason'), 'Wrong digest');
    act(() => dropRow());
    expect(screen.getByText('No promotions in flight.')).toBeInTheDocument();
    expect(within(screen.getByTestId('withdraw-dialog')).getByTestId('withdraw-reason')).toHaveValue('Wrong digest');
  });

  it("shows the backend's whole refusal of an approval", async () => {
    const message =
      'The pull request changed since Backstage verified it (its head is now 1234567); the Gate is checking it — look again before approving';
    const approvePromotion = jest.fn().mockRejectedValue(await conflict(message));
    const onChanged = jest.fn();
    await renderList({ ladder: ladderWith('refused'), api: { approvePromotion }, onChanged, viewer: CAROL });

    await userEvent.click(await screen.findByTestId('approve-p-refused'));
    await userEvent.click(await screen.findByTestId('approve-confirm'));
    expect(await screen.findByTestId('approve-error')).toHaveTextContent(message);
    expect(onChanged).not.toHaveBeenCalled();
  });

  it('says when nothing is in flight', async () => {
    await renderList({ ladder: shopLadder() });
    expect(await screen.findByText('No promotions in flight.')).toBeInTheDocument();
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
    expect(within(rollback).getByTestId('rollback-chip-rb-1')).toHaveTextContent('Rollback');
    expect(rollback).not.toHaveTextContent('prod → prod');
    expect(screen.getByTestId('open-promotion-p-2')).toHaveTextContent('test → prod');
    expect(screen.queryByTestId('rollback-chip-p-2')).not.toBeInTheDocument();
  });

  it('lets the requester withdraw a pending promotion with a reason, and offers it to nobody else', async () => {
    const withdrawPromotion = jest.fn(async () => ({ ...awaitingApproval('withdraw'), status: 'closed' as const }));
    const onChanged = jest.fn();
    // The requester, alice, who is not an approver here.
    await renderList({
      ladder: ladderWith('withdraw'),
      api: { withdrawPromotion },
      onChanged,
      viewer: { userEntityRef: 'user:default/alice', claims: ['user:default/alice', 'group:default/alpha'] },
    });

    // Nothing to withdraw on the merged one.
    expect(screen.queryByTestId('withdraw-p-merged')).not.toBeInTheDocument();
    await userEvent.click(await screen.findByTestId('withdraw-p-withdraw'));
    const dialog = await screen.findByTestId('withdraw-dialog');
    expect(dialog).toHaveTextContent('Withdraw promotion test → prod of alpha/withdraw');
    expect(within(dialog).getByTestId('withdraw-confirm')).toBeDisabled();
    await userEvent.type(within(dialog).getByTestId('withdraw-reason'), 'Requested prod by mistake');
    await userEvent.click(within(dialog).getByTestId('withdraw-confirm'));

    await waitFor(() => expect(withdrawPromotion).toHaveBeenCalledWith('p-withdraw', 'Requested prod by mistake'));
    await waitFor(() => expect(onChanged).toHaveBeenCalled());
  });

  it('offers Withdraw to no one who neither requested it nor approves', async () => {
    await renderList({ ladder: ladderWith('others') });
    await screen.findByTestId('open-promotion-p-others');
    expect(screen.queryByTestId('withdraw-p-others')).not.toBeInTheDocument();
  });
});
