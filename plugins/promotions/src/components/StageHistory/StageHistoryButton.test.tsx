import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { StageHistoryEntry } from '@refplat/plugin-promotions-common';
import { promotionsApiRef } from '../../api';
import { digest } from '../../__testUtils__/ladders';
import { StageHistoryButton } from './StageHistoryButton';

const entries: StageHistoryEntry[] = [
  {
    revision: 'r2',
    author: 'promotions-bot',
    date: '2026-11-30T10:00:00.000Z',
    message: 'Promote storefront to prod (#42)',
    services: { storefront: digest('d'), cart: digest('c') },
    changes: [{ service: 'storefront', from: digest('b'), to: digest('d') }],
    pullRequest: { number: 42, url: 'https://github.com/acme/platform/pull/42' },
  },
  {
    revision: 'r1',
    author: 'alice',
    date: '2026-11-29T10:00:00.000Z',
    message: 'Initial prod release',
    services: { storefront: digest('b'), cart: digest('c') },
    changes: [
      { service: 'storefront', to: digest('b') },
      { service: 'cart', to: digest('c') },
    ],
  },
];

describe('StageHistoryButton', () => {
  it("lists a stage's releases, newest first, with digests and PR links", async () => {
    const getStageHistory = jest.fn(async () => entries);
    await renderInTestApp(
      <TestApiProvider apis={[[promotionsApiRef, { getStageHistory }]]}>
        <StageHistoryButton product={{ team: 'alpha', product: 'shop' }} stage="prod" />
      </TestApiProvider>,
    );

    await userEvent.click(screen.getByTestId('history-prod'));
    const dialog = await screen.findByTestId('history-dialog');
    const newest = await within(dialog).findByTestId('history-entry-r2');
    expect(getStageHistory).toHaveBeenCalledWith({ team: 'alpha', product: 'shop' }, 'prod');

    expect(newest).toHaveTextContent('promotions-bot');
    expect(newest).toHaveTextContent('Promote storefront to prod (#42)');
    expect(within(newest).getByTestId('history-commit-r2')).toHaveTextContent('r2');
    // What the commit changed, then what it kept
    expect(within(newest).getByTestId('history-change-storefront')).toHaveTextContent(
      'storefront: bbbbbbb→ddddddd',
    );
    expect(newest).toHaveTextContent('cart: ccccccc');
    expect(within(newest).queryByTestId('history-change-cart')).not.toBeInTheDocument();
    expect(within(newest).getByText('#42')).toHaveAttribute(
      'href',
      'https://github.com/acme/platform/pull/42',
    );
    const oldest = within(dialog).getByTestId('history-entry-r1');
    expect(oldest).toHaveTextContent('Initial prod release');
    expect(oldest).toHaveTextContent('alice');
    expect(
      within(dialog).getAllByTestId(/^history-entry-/).map(el => el.getAttribute('data-testid')),
    ).toEqual(['history-entry-r2', 'history-entry-r1']);
  });
});
