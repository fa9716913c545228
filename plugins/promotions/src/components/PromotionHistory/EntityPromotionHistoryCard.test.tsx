import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderCard, systemFor } from '../../__testUtils__/card';
import { digest, shopLadder, shopPromotion } from '../../__testUtils__/ladders';
import { EntityPromotionHistoryCard } from './EntityPromotionHistoryCard';

const promotions = [
  shopPromotion({
    id: 'p-open',
    status: 'awaiting-approval',
    requestedBy: 'user:default/bob',
    pullRequest: { number: 44, url: 'https://github.com/acme/platform/pull/44' },
  }),
  shopPromotion({
    id: 'p-rollback',
    kind: 'rollback',
    fromStage: 'test',
    toStage: 'test',
    status: 'closed',
    statusReason: 'Superseded by #43',
    requestedBy: 'user:default/alice',
    createdAt: '2026-11-30T08:00:00.000Z',
    updatedAt: '2026-11-30T08:00:30.000Z',
  }),
  shopPromotion({
    id: 'p-rejected',
    status: 'closed',
    statusReason: 'Rejected by Alice Approver: Not during the audit freeze',
    rejection: { by: 'user:default/alice', reason: 'Not during the audit freeze' },
    requestedBy: 'user:default/bob',
    pullRequest: { number: 42, url: 'https://github.com/acme/platform/pull/42' },
    createdAt: '2026-11-30T07:00:00.000Z',
    updatedAt: '2026-11-30T07:05:00.000Z',
  }),
  shopPromotion({
    id: 'p-merged',
    fromStage: 'dev',
    toStage: 'test',
    status: 'merged',
    services: { cart: digest('e') },
    previousServices: { cart: digest('c') },
    requestedBy: 'plugin:promotions/auto-promoter',
    // A quorum of two: both by name.
    approvedBy: 'user:default/alice, user:default/carol',
    pullRequest: { number: 41, url: 'https://github.com/acme/platform/pull/41' },
    createdAt: '2026-11-29T10:00:00.000Z',
    updatedAt: '2026-11-29T10:02:10.000Z',
  }),
];

describe('EntityPromotionHistoryCard', () => {
  it('lists promotions and rollbacks, merged ones too, with status, people, PR and how long they took', async () => {
    const listPromotions = jest.fn(async () => promotions);
    await renderCard(<EntityPromotionHistoryCard />, {
      entity: systemFor('shop'),
      api: { listPromotions, getLadder: jest.fn(async () => shopLadder()) },
    });

    const merged = await screen.findByTestId('history-promotion-p-merged');
    expect(listPromotions).toHaveBeenCalledWith({ team: 'alpha', product: 'shop' });
    expect(
      screen.getAllByTestId(/^history-promotion-/).map(row => row.getAttribute('data-testid')),
    ).toEqual([
      'history-promotion-p-open',
      'history-promotion-p-rollback',
      'history-promotion-p-rejected',
      'history-promotion-p-merged',
    ]);
    expect(merged).toHaveTextContent('dev → test');
    expect(merged).toHaveTextContent('cart: ccccccc→eeeeeee');
    expect(within(merged).getByTestId('history-status-p-merged')).toHaveTextContent('Merged');
    expect(merged).toHaveTextContent('Auto-promoter');
    expect(merged).toHaveTextContent('alice, carol');
    expect(within(merged).getByText('#41')).toHaveAttribute('href', 'https://github.com/acme/platform/pull/41');
    expect(within(merged).getByTestId('history-took-p-merged')).toHaveTextContent('2m 10s');

    const rollback = screen.getByTestId('history-promotion-p-rollback');
    expect(within(rollback).getByTestId('rollback-chip-p-rollback')).toHaveTextContent('Rollback');
    expect(within(rollback).getByTestId('history-status-p-rollback')).toHaveTextContent('Closed');
    expect(rollback).toHaveTextContent('alice');
    expect(within(rollback).getByTestId('history-took-p-rollback')).toHaveTextContent('30s');

    const open = screen.getByTestId('history-promotion-p-open');
    expect(within(open).getByTestId('history-status-p-open')).toHaveTextContent('Awaiting approval');
    expect(within(open).getByTestId('history-took-p-open')).toHaveTextContent(/so far$/);
    expect(screen.getByRole('table')).not.toHaveTextContent('user:default/');
  });

  it('says who rejected a promotion, by their catalog name linked to their page, and why', async () => {
    await renderCard(<EntityPromotionHistoryCard />, {
      entity: systemFor('shop'),
      api: { listPromotions: jest.fn(async () => promotions), getLadder: jest.fn(async () => shopLadder()) },
      displayNames: { 'user:default/alice': 'Alice Approver', 'user:default/bob': 'Bob Builder' },
    });
    const rejected = await screen.findByTestId('history-promotion-p-rejected');
    expect(within(rejected).getByTestId('history-status-p-rejected')).toHaveTextContent('Closed');
    const rejection = within(rejected).getByTestId('history-rejection-p-rejected');
    await waitFor(() => expect(rejection).toHaveTextContent('Rejected by Alice Approver: Not during the audit freeze'));
    expect(within(rejection).getByRole('link', { name: 'Alice Approver' })).toHaveAttribute(
      'href',
      '/catalog/default/user/alice',
    );
    expect(rejected).toHaveTextContent('Bob Builder');
    expect(screen.getByRole('table')).not.toHaveTextContent(/(user|group):default\//);
  });

  it('shows how far a quorum is and who approved so far, from the ladder, while the promotion awaits the rest (issue 45)', async () => {
    const ladder = shopLadder();
    ladder.promotions = [
      {
        ...promotions[0],
        approval: {
          headSha: 'h1',
          approvals: [{ approver: 'user:default/alice', at: '2026-12-01T10:00:00.000Z', role: 'release-approver' }],
          quorum: 2,
          quorumApprovers: ['user:default/alice'],
          progress: '1 of 2',
          quorumMet: false,
          commanderNeeded: false,
        },
      },
    ];
    await renderCard(<EntityPromotionHistoryCard />, {
      entity: systemFor('shop'),
      api: { listPromotions: jest.fn(async () => promotions), getLadder: jest.fn(async () => ladder) },
    });

    expect(await screen.findByTestId('history-approved-by-p-open')).toHaveTextContent(/^1 of 2: alice$/);
    expect(screen.getByTestId('history-approved-by-p-rejected')).toHaveTextContent(/^—$/);
  });

  it("filters by stage, in the ladder's order", async () => {
    await renderCard(<EntityPromotionHistoryCard />, {
      entity: systemFor('shop'),
      api: { listPromotions: jest.fn(async () => promotions), getLadder: jest.fn(async () => shopLadder()) },
    });
    await screen.findByTestId('history-promotion-p-merged');
    await waitFor(() =>
      expect(
        within(screen.getByRole('group', { name: 'Filter by stage' }))
          .getAllByRole('button')
          .map(chip => chip.textContent),
      ).toEqual(['All stages', 'dev', 'test', 'prod']),
    );

    await userEvent.click(screen.getByTestId('stage-filter-test'));
    expect(screen.getAllByTestId(/^history-promotion-/).map(row => row.getAttribute('data-testid'))).toEqual([
      'history-promotion-p-rollback',
      'history-promotion-p-merged',
    ]);
    await userEvent.click(screen.getByTestId('stage-filter-dev'));
    expect(screen.getByTestId('history-empty')).toHaveTextContent('No promotions into dev yet.');
    await userEvent.click(screen.getByTestId('stage-filter-all'));
    expect(screen.getAllByTestId(/^history-promotion-/)).toHaveLength(4);
  });
});
