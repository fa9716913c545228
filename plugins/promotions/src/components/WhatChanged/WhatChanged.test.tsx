import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StageChanges } from '../../api';
import { digest, shopLadder } from '../../__testUtils__/ladders';
import { renderWithPromotionsApis } from '../../__testUtils__/render';
import { StageHeader } from '../LadderCard/StageHeader';
import { RequestPromotionButton } from '../RequestPromotion/RequestPromotionButton';
import { WhatChangedList } from './WhatChangedList';

const devToTest: StageChanges = {
  fromStage: 'dev',
  toStage: 'test',
  items: [
    {
      service: 'storefront',
      from: digest('a'),
      to: digest('b'),
      changed: true,
      commits: [
        {
          sha: '1234567890abcdef',
          message: 'Fix the basket total\n\nRounded per line now.',
          author: 'alice',
          url: 'https://github.com/acme/storefront/commit/1234567890abcdef',
        },
        {
          sha: 'fedcba0987654321',
          message: 'Faster product page',
          author: 'bob',
          url: 'https://github.com/acme/storefront/commit/fedcba0987654321',
        },
      ],
      compareUrl: 'https://github.com/acme/storefront/compare/b...a',
    },
    {
      service: 'search',
      from: digest('e'),
      to: digest('f'),
      changed: true,
      note: "The Releases do not record which commit search's digests were built from",
    },
    { service: 'cart', from: digest('c'), to: digest('c'), changed: false },
  ],
};

/** `count` commits of storefront, newest first, as the backend lists them. */
function storefrontCommits(count: number) {
  return Array.from({ length: count }, (_, i) => {
    const sha = `${String(count - i).padStart(7, '0')}${'f'.repeat(33)}`;
    return {
      sha,
      message: `Change ${count - i}`,
      author: 'alice',
      url: `https://github.com/acme/storefront/commit/${sha}`,
    };
  });
}

function expectChanges(root: HTMLElement) {
  const storefront = within(root).getByTestId('what-changed-storefront');
  const first = within(storefront).getByTestId('commit-1234567');
  expect(first).toHaveTextContent(/^1234567.* Fix the basket total — alice$/);
  expect(first).not.toHaveTextContent('Rounded per line');
  expect(within(first).getByRole('link', { name: /^1234567/ })).toHaveAttribute(
    'href',
    'https://github.com/acme/storefront/commit/1234567890abcdef',
  );
  expect(within(storefront).getByTestId('commit-fedcba0')).toHaveTextContent(
    'Faster product page — bob',
  );
  expect(within(storefront).getByRole('link', { name: /Compare on GitHub/ })).toHaveAttribute(
    'href',
    'https://github.com/acme/storefront/compare/b...a',
  );
  expect(within(root).getByTestId('what-changed-note-search')).toHaveTextContent(
    "The Releases do not record which commit search's digests were built from",
  );
  expect(within(root).queryByTestId('what-changed-cart')).not.toBeInTheDocument();
}

describe('What changed', () => {
  it('lists the commits, or why not, in the Request Promotion dialog', async () => {
    const ladder = shopLadder();
    ladder.stages[0].services.storefront.healthy = true;
    ladder.stages[0].services.storefront.verdict = 'healthy';
    const getChanges = jest.fn(async () => devToTest);
    await renderWithPromotionsApis(
      <RequestPromotionButton ladder={ladder} stage={ladder.stages[1]} onRequested={jest.fn()} />,
      { api: { getChanges, listPromotions: jest.fn(async () => []) } },
    );

    const button = await screen.findByTestId('request-promotion-test');
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.click(button);

    const section = await screen.findByTestId('what-changed');
    expect(section).toHaveTextContent('What changed');
    await within(section).findByTestId('what-changed-storefront');
    expectChanges(section);
    expect(getChanges).toHaveBeenCalledWith({ team: 'alpha', product: 'shop' }, 'dev', 'test');
  });

  it('shows only the promoted service when one cell is promoted', async () => {
    const ladder = shopLadder();
    ladder.stages[0].services.storefront.healthy = true;
    ladder.stages[0].services.storefront.verdict = 'healthy';
    await renderWithPromotionsApis(
      <RequestPromotionButton
        ladder={ladder}
        stage={ladder.stages[1]}
        service="storefront"
        onRequested={jest.fn()}
      />,
      { api: { getChanges: jest.fn(async () => devToTest), listPromotions: jest.fn(async () => []) } },
    );
    const button = await screen.findByTestId('request-promotion-test-storefront');
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.click(button);

    const section = await screen.findByTestId('what-changed');
    expect(await within(section).findByTestId('what-changed-storefront')).toBeInTheDocument();
    expect(within(section).queryByTestId('what-changed-search')).not.toBeInTheDocument();
  });

  it('opens the same list from the stage header, comparing the stage below', async () => {
    const ladder = shopLadder();
    const getChanges = jest.fn(async () => devToTest);
    await renderWithPromotionsApis(
      <table>
        <thead>
          <tr>
            <StageHeader ladder={ladder} stage={ladder.stages[0]} onChanged={jest.fn()} />
            <StageHeader ladder={ladder} stage={ladder.stages[1]} onChanged={jest.fn()} />
          </tr>
        </thead>
      </table>,
      { api: { getChanges, listPromotions: jest.fn(async () => []) } },
    );

    expect(screen.queryByTestId('changes-dev')).not.toBeInTheDocument();
    await userEvent.click(await screen.findByTestId('changes-test'));
    const dialog = await screen.findByTestId('changes-dialog');
    expect(dialog).toHaveTextContent('What changed: dev → test');
    await within(dialog).findByTestId('what-changed-storefront');
    expectChanges(dialog);
    expect(getChanges).toHaveBeenCalledWith({ team: 'alpha', product: 'shop' }, 'dev', 'test');
  });

  it('says when what changed cannot be read', async () => {
    const ladder = shopLadder();
    // The header offers "Changes" only when something waits to climb.
    ladder.stages[2].services.storefront.waitingToClimb = true;
    await renderWithPromotionsApis(
      <table>
        <thead>
          <tr>
            <StageHeader ladder={ladder} stage={ladder.stages[2]} onChanged={jest.fn()} />
          </tr>
        </thead>
      </table>,
      { api: { getChanges: jest.fn().mockRejectedValue(new Error('GitHub answered 503')) } },
    );
    await userEvent.click(await screen.findByTestId('changes-prod'));
    expect(await screen.findByTestId('what-changed-error')).toHaveTextContent(
      'Cannot read what changed between test and prod: GitHub answered 503',
    );
  });

  it.each([
    [55, 5, 'and 5 more commits on GitHub', undefined],
    [51, 1, 'and 1 more commit on GitHub', undefined],
    [
      300,
      250,
      'and 250 more commits on GitHub',
      "GitHub's compare page shows only the newest 250 of these 300 commits",
    ],
  ])(
    'of %p commits shows the newest 50 and links to the %p older ones on GitHub',
    async (total, omitted, linkText, note) => {
      const storefront = devToTest.items[0];
      const getChanges = jest.fn(async () => ({
        ...devToTest,
        items: [
          {
            ...storefront,
            commits: storefrontCommits(total).slice(0, 50),
            omittedCommits: omitted,
            ...(note ? { note } : {}),
          },
        ],
      }));
      await renderWithPromotionsApis(
        <WhatChangedList product={{ team: 'alpha', product: 'shop' }} fromStage="dev" toStage="test" />,
        { api: { getChanges } },
      );

      const item = await screen.findByTestId('what-changed-storefront');
      const lines = within(item).getAllByTestId(/^commit-/);
      expect(lines).toHaveLength(50);
      expect(lines[0]).toHaveTextContent(`Change ${total} — alice`);
      expect(lines[49]).toHaveTextContent(`Change ${total - 49} — alice`);
      const more = within(item).getByTestId('what-changed-compare-storefront');
      expect(more).toHaveTextContent(linkText);
      expect(within(more).getByRole('link')).toHaveAttribute('href', storefront.compareUrl);
      expect(within(item).queryByTestId('what-changed-note-storefront')?.textContent).toBe(note);
    },
  );
});
