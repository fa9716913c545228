import { useState } from 'react';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Ladder } from '@refplat/plugin-promotions-common';
import { digest, shopLadder, shopPromotion } from '../../__testUtils__/ladders';
import { renderWithPromotionsApis } from '../../__testUtils__/render';
import { IncomingDigest } from './IncomingDigest';

/** shop whose dev storefront (a) is healthy and waits to climb into test (b). */
function waiting(): Ladder {
  const ladder = shopLadder();
  ladder.stages[0].services.storefront.healthy = true;
  ladder.stages[0].services.storefront.verdict = 'healthy';
  return ladder;
}

/** The same once the promotion landed: test runs a, nothing waits. */
function landed(): Ladder {
  const ladder = waiting();
  ladder.stages[1].services.storefront.digest = digest('a');
  ladder.stages[1].services.storefront.waitingToClimb = false;
  return ladder;
}

/** The cell as the card shows it, with a way to let the ladder move on underneath it. */
const Cell = () => {
  const [ladder, setLadder] = useState(waiting);
  return (
    <>
      <button onClick={() => setLadder(landed())}>land</button>
      <IncomingDigest
        ladder={ladder}
        stage={ladder.stages[1]}
        below={ladder.stages[0]}
        service="storefront"
        onChanged={jest.fn()}
      />
    </>
  );
};

describe('IncomingDigest', () => {
  it('says what is new below and offers Promote; the dialog outlives the promotion landing', async () => {
    const promotion = shopPromotion({ fromStage: 'dev', toStage: 'test', services: { storefront: digest('a') } });
    await renderWithPromotionsApis(<Cell />, {
      api: {
        requestPromotion: jest.fn(async () => ({ promotion, existing: false, plan: [] })),
        listPromotions: jest.fn(async () => [{ ...promotion, status: 'merged' as const }]),
      },
    });
    expect(screen.getByTestId('incoming-test-storefront')).toHaveTextContent('new in dev');
    const promote = screen.getByTestId('request-promotion-test-storefront');
    await waitFor(() => expect(promote).toBeEnabled());
    await userEvent.click(promote);
    await userEvent.click(await screen.findByTestId('promotion-submit'));
    expect(await screen.findByTestId('promotion-pr-link')).toHaveTextContent('#42');

    // The ladder refreshes behind the (modal) dialog.
    fireEvent.click(screen.getByRole('button', { name: 'land', hidden: true }));
    expect(screen.queryByTestId('incoming-test-storefront')).not.toBeInTheDocument();
    expect(screen.queryByTestId('request-promotion-test-storefront')).not.toBeInTheDocument();
    const dialog = screen.getByTestId('promotion-dialog');
    await waitFor(() =>
      expect(within(dialog).getByTestId('promotion-status')).toHaveAttribute('data-status', 'merged'),
    );
  });

  it('calls an older digest below older, offers no Promote, and says only a person rolls back', async () => {
    const ladder = waiting();
    const cell = ladder.stages[1].services.storefront;
    cell.waitingToClimb = false;
    cell.incomingAge = { age: 'older', reason: "sha256:aaaa… reached dev before test's sha256:bbbb…" };
    await renderWithPromotionsApis(
      <IncomingDigest ladder={ladder} stage={ladder.stages[1]} below={ladder.stages[0]} service="storefront" onChanged={jest.fn()} />,
    );
    const older = screen.getByTestId('older-below-test-storefront');
    expect(older).toHaveTextContent('older in dev');
    expect(screen.queryByText(/new in dev/)).not.toBeInTheDocument();
    expect(screen.queryByTestId('request-promotion-test-storefront')).not.toBeInTheDocument();
    await userEvent.hover(older);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      "sha256:aaaa… reached dev before test's sha256:bbbb…. Moving it up would be a downgrade: the auto-promoter never makes one; only a person rolls test back, from its History.",
    );
  });
});
