import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Ladder, PromotionChecklistItem, summarizeLadder } from '@refplat/plugin-promotions-common';
import { shopLadder } from '../../__testUtils__/ladders';
import { renderWithPromotionsApis } from '../../__testUtils__/render';
import { RequestPromotionButton } from '../RequestPromotion/RequestPromotionButton';

const storefrontChecklist: PromotionChecklistItem[] = [
  { gate: 'declared', ok: true, detail: "test's Environment declares it" },
  { gate: 'released', ok: true, detail: 'Released in dev: sha256:aaaaaaaaaaaa…' },
  {
    gate: 'health',
    ok: false,
    detail: 'Not healthy in dev: Rollout storefront is Degraded: ProgressDeadlineExceeded, the canary did not become available',
  },
  { gate: 'running-digest', ok: true, detail: 'dev runs the released sha256:aaaaaaaaaaaa…' },
  { gate: 'soak', ok: true, detail: 'No soak time to wait for in dev' },
  { gate: 'hold', ok: true, detail: 'No hold in test' },
  { gate: 'open-promotion', ok: true, detail: 'No promotion into test in flight' },
  { gate: 'approval', ok: true, detail: 'test merges automatically once the checks pass' },
  { gate: 'carried', ok: true, detail: 'test has sha256:bbbbbbbbbbbb…' },
];

/** shop whose storefront cannot climb into test (dev is degraded) and whose cart is carried. */
function ladderBlockedIntoTest(): Ladder {
  const ladder = shopLadder();
  const test = ladder.stages[1];
  test.promotion = { allowed: false, reason: 'storefront is not healthy in dev' };
  test.services.storefront.promotion = { allowed: false, reason: 'storefront is not healthy in dev' };
  test.services.storefront.checklist = storefrontChecklist;
  test.services.cart.checklist = [
    ...storefrontChecklist.slice(0, 8).map(item => ({ ...item, ok: true })),
    { gate: 'carried', ok: false, detail: 'test already carries sha256:cccccccccccc…: nothing to promote' },
  ];
  return ladder;
}

async function hoverBlocked(ladder: Ladder, service?: string) {
  await renderWithPromotionsApis(
    <RequestPromotionButton ladder={ladder} stage={ladder.stages[1]} service={service} onRequested={jest.fn()} />,
    { api: { listPromotions: jest.fn(async () => []) } },
  );
  const key = service ? `test-${service}` : 'test';
  const button = await screen.findByTestId(`request-promotion-${key}`);
  expect(button).toBeDisabled();
  await userEvent.hover(button.parentElement!);
  return screen.findByTestId(`why-${key}`);
}

describe('Why a promotion cannot go', () => {
  it("lists every gate of a service's promotion in words, the blocking one marked, nothing clipped", async () => {
    const why = await hoverBlocked(ladderBlockedIntoTest(), 'storefront');
    expect(why).toHaveTextContent('storefront is not healthy in dev');
    const gates = within(why).getAllByTestId(/^checklist-storefront-/);
    expect(gates.map(gate => gate.getAttribute('data-look'))).toEqual([
      'ok', 'ok', 'blocked', 'ok', 'ok', 'ok', 'ok', 'info', 'ok',
    ]);
    expect(gates.map(gate => gate.querySelector('.MuiListItemText-primary')?.textContent)).toEqual([
      'Declared in test',
      'Released in dev',
      'Healthy in dev',
      'Running in dev',
      'Soaked in dev',
      'Not frozen in test',
      'No other promotion into test',
      'Approval',
      'Something to promote',
    ]);
    // The whole finding, never an internal key.
    expect(why).toHaveTextContent('the canary did not become available');
    expect(why).not.toHaveTextContent(/running-digest|open-promotion/);
  });

  it("shows only a rung's blocking gates, and counts the passing ones", async () => {
    const why = await hoverBlocked(ladderBlockedIntoTest());
    expect(within(why).getAllByTestId(/^checklist-storefront-/).map(gate => gate.dataset.testid)).toEqual([
      'checklist-storefront-health',
    ]);
    expect(within(why).getByTestId('checklist-storefront')).toHaveTextContent('8 other checks pass');
    // cart waits for nothing: it is not part of the rung.
    expect(within(why).queryByTestId('checklist-cart')).not.toBeInTheDocument();
  });

  it("shows a summary ladder's blocking gates, the others counted, for a rung and for one service", async () => {
    const ladder = summarizeLadder(ladderBlockedIntoTest());
    const rung = await hoverBlocked(ladder);
    expect(within(rung).getAllByTestId(/^checklist-storefront-/).map(gate => gate.dataset.testid)).toEqual([
      'checklist-storefront-health',
    ]);
    expect(within(rung).getByTestId('checklist-storefront')).toHaveTextContent('8 other checks pass');
    await userEvent.unhover(rung);
    const service = await hoverBlocked(ladder, 'storefront');
    expect(within(service).getByTestId('checklist-storefront-health')).toHaveAttribute('data-look', 'blocked');
    expect(within(service).getByTestId('checklist-storefront')).toHaveTextContent('8 other checks pass');
  });

  it('marks "already carried" as nothing to promote, not as a failure', async () => {
    const ladder = ladderBlockedIntoTest();
    ladder.stages[1].services.cart.promotion = { allowed: false, reason: 'test already carries cart' };
    const why = await hoverBlocked(ladder, 'cart');
    const carried = within(why).getByTestId('checklist-cart-carried');
    expect(carried).toHaveAttribute('data-look', 'info');
    expect(within(carried).getByTestId('gate-info')).toBeInTheDocument();
    expect(within(why).queryByTestId('gate-blocked')).not.toBeInTheDocument();
  });

  it('explains nothing while the promotion is allowed', async () => {
    const ladder = ladderBlockedIntoTest();
    ladder.stages[1].services.cart.promotion = { allowed: true, reason: 'Promote cart from dev' };
    await renderWithPromotionsApis(
      <RequestPromotionButton ladder={ladder} stage={ladder.stages[1]} service="cart" onRequested={jest.fn()} />,
    );
    expect(await screen.findByTestId('request-promotion-test-cart')).toBeEnabled();
    expect(screen.queryByTestId('why-test-cart')).not.toBeInTheDocument();
  });
});
