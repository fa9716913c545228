import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Ladder, PromotionChecklistItem } from '@refplat/plugin-promotions-common';
import { shopLadder } from '../../__testUtils__/ladders';
import { renderWithPromotionsApis } from '../../__testUtils__/render';
import { RequestPromotionButton } from '../RequestPromotion/RequestPromotionButton';

const storefrontChecklist: PromotionChecklistItem[] = [
  { gate: 'declared', ok: true, detail: "test's Environment declares it" },
  { gate: 'health', ok: false, detail: 'storefront is not healthy in dev: Canary in progress' },
  { gate: 'hold', ok: true, detail: 'No hold on storefront in test' },
];

/** shop whose storefront cannot climb into test: dev's canary is in progress. */
function ladderBlockedIntoTest(): Ladder {
  const ladder = shopLadder();
  const test = ladder.stages[1];
  test.promotion = { allowed: false, reason: 'storefront is not healthy in dev' };
  test.services.storefront.promotion = { allowed: false, reason: 'storefront is not healthy in dev' };
  test.services.storefront.checklist = storefrontChecklist;
  // cart carries the same digest in dev and test: not part of the rung.
  test.services.cart.checklist = [{ gate: 'carried', ok: true, detail: 'test already carries it' }];
  return ladder;
}

async function renderButton(ladder: Ladder, service?: string) {
  return renderWithPromotionsApis(
    <RequestPromotionButton
      ladder={ladder}
      stage={ladder.stages[1]}
      service={service}
      onRequested={jest.fn()}
    />,
    { api: { listPromotions: jest.fn(async () => []) } },
  );
}

function expectGates(popover: HTMLElement, service: string) {
  const declared = within(popover).getByTestId(`checklist-${service}-declared`);
  expect(declared).toHaveAttribute('data-ok', 'true');
  expect(within(declared).getByTestId('gate-ok')).toBeInTheDocument();
  expect(declared).toHaveTextContent("test's Environment declares it");
  const health = within(popover).getByTestId(`checklist-${service}-health`);
  expect(health).toHaveAttribute('data-ok', 'false');
  expect(within(health).getByTestId('gate-blocked')).toBeInTheDocument();
  expect(health).toHaveTextContent('storefront is not healthy in dev: Canary in progress');
  expect(within(popover).getByTestId(`checklist-${service}-hold`)).toHaveAttribute('data-ok', 'true');
}

describe('Why cannot I promote?', () => {
  it("lists each gate of a disabled cell's promotion with ✓/✗ and keeps the reason", async () => {
    await renderButton(ladderBlockedIntoTest(), 'storefront');

    const button = await screen.findByTestId('request-promotion-test-storefront');
    expect(button).toBeDisabled();
    expect(button.parentElement).toHaveAttribute('title', 'storefront is not healthy in dev');

    await userEvent.click(screen.getByTestId('why-test-storefront'));
    const popover = await screen.findByTestId('why-test-storefront-popover');
    expect(popover).toHaveTextContent('storefront is not healthy in dev');
    expectGates(popover, 'storefront');
  });

  it('lists the gates of the services that differ from below for a disabled rung', async () => {
    await renderButton(ladderBlockedIntoTest());

    expect(await screen.findByTestId('request-promotion-test')).toBeDisabled();
    await userEvent.click(screen.getByTestId('why-test'));
    const popover = await screen.findByTestId('why-test-popover');
    expect(within(popover).getByTestId('checklist-storefront')).toHaveTextContent('storefront');
    expectGates(popover, 'storefront');
    expect(within(popover).queryByTestId('checklist-cart')).not.toBeInTheDocument();
  });

  it('offers no "why?" while the promotion is allowed', async () => {
    const ladder = ladderBlockedIntoTest();
    ladder.stages[1].services.cart.promotion = { allowed: true, reason: 'Promote cart from dev' };
    await renderButton(ladder, 'cart');

    await screen.findByTestId('request-promotion-test-cart');
    expect(screen.queryByTestId('why-test-cart')).not.toBeInTheDocument();
  });
});
