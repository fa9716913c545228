import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Ladder, LadderStage } from '@refplat/plugin-promotions-common';
import { renderCard, systemFor } from '../../__testUtils__/card';
import { shopLadder } from '../../__testUtils__/ladders';
import { EntityPromotionLadderCard } from './EntityPromotionLadderCard';

// jsdom lays nothing out: each test says how wide the card measures.
let mockCardWidth = 0;
jest.mock('./useCardWidth', () => ({
  useCardWidth: () => [() => {}, mockCardWidth],
}));

/** What a create-app Overview leaves the ladder in a 1280 px window: a 661 px card, two thirds of the page. */
const CREATE_APP_AT_1280_PX = 629;
/** This repository's app in a 1280 px window: the ladder gets the page's width. */
const FULL_WIDTH_AT_1280_PX = 984;

const PROMOTE_INTO_TEST = 'Promote from dev into test';
const PROMOTE_STOREFRONT_INTO_TEST =
  'Promote storefront from dev into test';

/** A stage like `from`, named `name`, in step with the stage below it. */
function inStepCopy(from: LadderStage, name: string): LadderStage {
  const copy: LadderStage = JSON.parse(JSON.stringify(from));
  copy.name = name;
  for (const cell of Object.values(copy.services)) cell.waitingToClimb = false;
  return copy;
}

/**
 * shop as `product` on five stages, as the demo app has them: storefront
 * may climb from dev into test on its own, while the whole rung may not.
 */
function fiveStageLadder(product: string): Ladder {
  const ladder: Ladder = {
    ...shopLadder(),
    product,
    approvers: ['group:default/release-approvers'],
  };
  const [dev, test, prod] = ladder.stages;
  ladder.stages = [
    dev,
    test,
    inStepCopy(test, 'uat'),
    inStepCopy(test, 'staging'),
    prod,
  ];
  test.promotion = { allowed: false, reason: 'cart is not healthy in dev' };
  test.services.storefront.promotion = {
    allowed: true,
    reason: 'Promote storefront from dev',
  };
  return ladder;
}

async function renderAtWidth(width: number, ladder: Ladder) {
  mockCardWidth = width;
  await renderCard(<EntityPromotionLadderCard />, {
    entity: systemFor(ladder.product),
    api: { getLadder: jest.fn(async () => ladder) },
  });
  return screen.findByTestId('ladder-table');
}

describe('EntityPromotionLadderCard in a narrow card', () => {
  it('shows Promote as its arrow alone, keeping its name and saying its label on hover', async () => {
    await renderAtWidth(CREATE_APP_AT_1280_PX, fiveStageLadder('narrow'));

    const cell = screen.getByRole('button', {
      name: PROMOTE_STOREFRONT_INTO_TEST,
    });
    const rung = screen.getByRole('button', { name: PROMOTE_INTO_TEST });
    for (const button of [cell, rung]) {
      expect(button).toHaveTextContent(/^$/);
      expect(button.querySelector('svg')).not.toBeNull();
    }

    await waitFor(() => expect(cell).toBeEnabled());
    await userEvent.hover(cell);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      'Promote storefront from dev',
    );
    await userEvent.unhover(cell);

    // Disabled, it says why, after what it is.
    expect(rung).toBeDisabled();
    await userEvent.hover(rung.parentElement!);
    expect(await screen.findByTestId('why-test')).toHaveTextContent(
      /^Promote\s*cart is not healthy in dev/,
    );
  });

  it('keeps every stage column wide enough for the arrows, so a narrower card scrolls the ladder', async () => {
    const table = await renderAtWidth(400, fiveStageLadder('narrower'));
    // 112 px of service names and five 98 px stages.
    expect(table).toHaveStyle({ minWidth: '602px' });
    expect(
      screen.getByRole('button', { name: PROMOTE_STOREFRONT_INTO_TEST }),
    ).toHaveTextContent(/^$/);
  });

  it('keeps the Promote text in a wide card', async () => {
    await renderAtWidth(FULL_WIDTH_AT_1280_PX, fiveStageLadder('wide'));

    expect(
      screen.getByRole('button', { name: PROMOTE_STOREFRONT_INTO_TEST }),
    ).toHaveTextContent(/^Promote$/);
    expect(
      screen.getByRole('button', { name: PROMOTE_INTO_TEST }),
    ).toHaveTextContent(/^Promote$/);
  });

  it('decides by the width of a stage column: three stages keep their text in the same narrow card', async () => {
    await renderAtWidth(CREATE_APP_AT_1280_PX, {
      ...shopLadder(),
      product: 'three-stages',
    });

    const cell = within(screen.getByTestId('cell-test-storefront'));
    expect(
      cell.getByRole('button', { name: PROMOTE_STOREFRONT_INTO_TEST }),
    ).toHaveTextContent(/^Promote$/);
  });
});
