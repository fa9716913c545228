import { ResponseError } from '@backstage/errors';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Entity } from '@backstage/catalog-model';
import { Ladder } from '@refplat/plugin-promotions-common';
import { PromotionsApi } from '../../api';
import { CardOptions, renderCard, systemFor } from '../../__testUtils__/card';
import { digest, shopLadder, shopPromotion } from '../../__testUtils__/ladders';
import { EntityPromotionLadderCard } from './EntityPromotionLadderCard';

const shopSystem = systemFor('shop');

function renderLadderCard(
  api: Partial<PromotionsApi>,
  entity: Entity = shopSystem,
  options: Partial<CardOptions> = {},
) {
  return renderCard(<EntityPromotionLadderCard />, { entity, api, ...options });
}

/** shop as `product` (permission decisions are cached per Product). */
function ladderOf(product: string): Ladder {
  return { ...shopLadder(), product, approvers: ['group:default/release-approvers'] };
}

/** `product` whose test runs storefront d, waiting to climb into prod. */
function ladderReadyForProd(product: string): Ladder {
  const ladder = ladderOf(product);
  ladder.stages[1].services.storefront.digest = digest('d');
  ladder.stages[1].services.storefront.waitingToClimb = false;
  ladder.stages[2].services.storefront.waitingToClimb = true;
  return ladder;
}

describe('EntityPromotionLadderCard', () => {
  it('shows stages left to right, services as rows, short digests, canary and what climbs where', async () => {
    const getLadder = jest.fn(async (): Promise<Ladder> => shopLadder());
    await renderLadderCard({ getLadder });

    expect(await screen.findByText('Promotion ladder')).toBeInTheDocument();
    expect(getLadder).toHaveBeenCalledWith({ team: 'alpha', product: 'shop' }, { detail: 'summary' });
    const headers = screen.getAllByTestId(/^stage-/).map(el => el.getAttribute('data-testid'));
    expect(headers).toEqual(['stage-dev', 'stage-test', 'stage-prod']);
    expect(screen.getByTestId('service-row-storefront')).toBeInTheDocument();
    expect(screen.getByTestId('service-row-cart')).toBeInTheDocument();

    const devStorefront = screen.getByTestId('cell-dev-storefront');
    expect(within(devStorefront).getByTestId('digest')).toHaveTextContent(/^aaaaaaa$/);
    expect(within(devStorefront).getByTestId('digest')).toHaveAttribute('data-digest', digest('a'));
    expect(devStorefront).toHaveTextContent('Canary step 4 of 6 · 25%');
    expect(devStorefront).toHaveTextContent('paused 2s of 3s');

    // storefront climbs from dev into test: an arrow on the border, "new in dev" and Promote.
    const testStorefront = screen.getByTestId('cell-test-storefront');
    expect(within(testStorefront).getByTestId('flow-test-storefront')).toBeInTheDocument();
    expect(testStorefront).toHaveTextContent('new in dev');
    expect(within(testStorefront).getByTestId('request-promotion-test-storefront')).toHaveTextContent('Promote');
    // cart is in step: nothing climbs, nothing to promote, nothing to explain.
    const testCart = screen.getByTestId('cell-test-cart');
    expect(within(testCart).queryByTestId('flow-test-cart')).not.toBeInTheDocument();
    expect(testCart).not.toHaveTextContent('new in');
    expect(within(testCart).queryByRole('button', { name: /^Promote / })).not.toBeInTheDocument();

    expect(screen.getByTestId('in-step-prod')).toHaveTextContent('In step with test');
    expect(screen.getByTestId('stage-dev')).toHaveTextContent('CI releases here');
    expect(within(screen.getByTestId('stage-prod')).getByText('approval')).toBeInTheDocument();
  });

  it('never calls a stage in step with an older digest below it (after a rollback below)', async () => {
    const ladder = ladderOf('older-below');
    // test's storefront is newer than dev's: dev was rolled back
    const storefront = ladder.stages[1].services.storefront;
    storefront.waitingToClimb = false;
    storefront.incomingAge = { age: 'older', reason: "sha256:aaaa… reached dev before test's sha256:bbbb…" };
    await renderLadderCard({ getLadder: jest.fn(async () => ladder) });

    expect(await screen.findByTestId('older-below-test-storefront')).toHaveTextContent('older in dev');
    expect(screen.queryByTestId('in-step-test')).not.toBeInTheDocument();
    expect(screen.queryByTestId('request-promotion-test-storefront')).not.toBeInTheDocument();
  });

  it('labels every action and explains a disabled one in one place, never with "why?" links', async () => {
    const ladder = ladderOf('labels');
    ladder.stages[1].promotion = { allowed: false, reason: 'storefront is not healthy in dev' };
    ladder.stages[1].services.storefront.promotion = { allowed: false, reason: 'storefront is not healthy in dev' };
    await renderLadderCard({ getLadder: jest.fn().mockResolvedValue(ladder) }, systemFor('labels'));

    const rung = await screen.findByTestId('request-promotion-test');
    expect(rung).toBeDisabled();
    expect(screen.getByTestId('request-promotion-test-storefront')).toBeDisabled();
    expect(screen.queryByText(/why\?/)).not.toBeInTheDocument();
    for (const stage of ['dev', 'test', 'prod']) {
      expect(screen.getByTestId(`history-${stage}`)).toHaveTextContent('History');
    }
    expect(screen.getByTestId('changes-test')).toHaveTextContent('Changes');
    // Nothing differs between test and prod: nothing to compare.
    expect(screen.queryByTestId('changes-prod')).not.toBeInTheDocument();
    for (const button of screen.getAllByRole('button')) {
      expect(button).toHaveAccessibleName();
    }
    await userEvent.hover(rung.parentElement!);
    expect(await screen.findByTestId('why-test')).toHaveTextContent('storefront is not healthy in dev');
  });

  it("links each stage's ArgoCD Application where the ladder gives its URL, and nothing where not", async () => {
    const ladder = shopLadder();
    ladder.stages[0].application = { name: 'alpha-shop-dev', url: 'https://argocd.example.com/applications/argocd/alpha-shop-dev' };
    await renderLadderCard({ getLadder: jest.fn().mockResolvedValue(ladder) });
    const link = await screen.findByTestId('argocd-dev');
    expect(link).toHaveAttribute('href', 'https://argocd.example.com/applications/argocd/alpha-shop-dev');
    expect(link).toHaveAccessibleName('ArgoCD of dev');
    expect(link).toHaveAttribute('target', '_blank');
    expect(screen.queryByTestId('argocd-test')).not.toBeInTheDocument();
  });

  it('names the annotation to add when the entity has none', async () => {
    await renderLadderCard({ getLadder: jest.fn() }, { ...shopSystem, metadata: { name: 'bare' } });
    expect((await screen.findAllByText(/refplat\.org\/product/)).length).toBeGreaterThan(0);
  });

  it('shows the error when the ladder cannot be read', async () => {
    await renderLadderCard({
      getLadder: jest.fn().mockRejectedValue(new Error('GitHub failed while reading branch main (HTTP 503)')),
    });
    expect(await screen.findByText(/Cannot read the ladder/)).toBeInTheDocument();
    expect(screen.getAllByText(/GitHub failed while reading branch main/).length).toBeGreaterThan(0);
  });

  it("says the backend's reason in the panel's title, not only 'Request failed with 503'", async () => {
    const reason = 'promotions is misconfigured: Missing required config value at \'promotions.argocd.token\'';
    const body = JSON.stringify({ error: { name: 'ServiceUnavailableError', message: reason }, response: { statusCode: 503 } });
    const error = await ResponseError.fromResponse({
      ok: false,
      status: 503,
      statusText: 'Service Unavailable',
      headers: { get: (name: string) => (name.toLowerCase() === 'content-type' ? 'application/json' : null) },
      text: async () => body,
    } as any);
    await renderLadderCard({ getLadder: jest.fn().mockRejectedValue(error) });
    expect(await screen.findByText(`Error: Cannot read the ladder: ${reason}`)).toBeInTheDocument();
  });

  it('keeps the digests and warns when health is unknown', async () => {
    const ladder = shopLadder();
    ladder.healthError = "ArgoCD 'argocd' unreachable: connection refused";
    await renderLadderCard({ getLadder: jest.fn().mockResolvedValue(ladder) });
    expect(await screen.findByText(/Health unknown/)).toBeInTheDocument();
    expect(screen.getByText(/connection refused/)).toBeInTheDocument();
    expect(within(screen.getByTestId('cell-dev-cart')).getByTestId('digest')).toHaveTextContent('ccccccc');
  });

  it('shows the promotion in flight into a stage instead of a second Promote, and in the cell it carries', async () => {
    const ladder = ladderReadyForProd('in-flight');
    ladder.promotions = [shopPromotion({ product: 'in-flight', status: 'awaiting-approval' })];
    await renderLadderCard({ getLadder: jest.fn().mockResolvedValue(ladder) }, systemFor('in-flight'));

    const live = await screen.findByTestId('live-promotion-prod');
    expect(live).toHaveTextContent('#42');
    expect(live).toHaveTextContent('Awaiting approval');
    // It carries what test has: there is nothing to replace it with.
    expect(within(screen.getByTestId('stage-prod')).queryByRole('button', { name: /^Promote / })).toBeNull();
    expect(screen.getByTestId('in-flight-prod-storefront')).toHaveTextContent('#42');
    expect(screen.queryByTestId('request-promotion-prod-storefront')).not.toBeInTheDocument();
    expect(within(screen.getByTestId('open-promotion-p-1')).getByText('#42')).toBeInTheDocument();
  });

  it('offers to replace the promotion in flight when the stage below moved on', async () => {
    const ladder = ladderReadyForProd('moved-on');
    ladder.promotions = [
      shopPromotion({ product: 'moved-on', status: 'awaiting-approval', services: { storefront: digest('e') } }),
    ];
    await renderLadderCard({ getLadder: jest.fn().mockResolvedValue(ladder) }, systemFor('moved-on'));

    const replace = await screen.findByTestId('request-promotion-prod');
    expect(replace).toHaveTextContent('Replace…');
    await waitFor(() => expect(replace).toBeEnabled());
    await userEvent.click(replace);
    expect(await screen.findByTestId('promotion-submit')).toBeDisabled();
  });

  it('re-reads the ladder once a promotion was requested, and keeps the dialog while the button goes', async () => {
    const ladder = ladderReadyForProd('refresh');
    const requested = { ...ladder, promotions: [shopPromotion({ product: 'refresh', status: 'awaiting-approval' })] };
    const getLadder = jest.fn().mockResolvedValueOnce(ladder).mockResolvedValue(requested);
    const requestPromotion = jest.fn(async () => ({
      promotion: shopPromotion({ product: 'refresh' }),
      existing: false,
      plan: [],
    }));
    await renderLadderCard(
      { getLadder, requestPromotion, listPromotions: jest.fn(async () => []) },
      systemFor('refresh'),
    );

    const button = await screen.findByTestId('request-promotion-prod');
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.click(button);
    await userEvent.click(await screen.findByTestId('promotion-submit'));
    expect(await screen.findByTestId('promotion-pr-link')).toHaveTextContent('#42');
    expect(requestPromotion).toHaveBeenCalledWith(
      { team: 'alpha', product: 'refresh' },
      { toStage: 'prod', services: ['storefront'] },
    );
    await waitFor(() => expect(getLadder).toHaveBeenCalledTimes(2));
    // The refreshed ladder shows the promotion in flight instead of Promote; the dialog stays.
    await screen.findByTestId('live-promotion-prod');
    expect(screen.queryByTestId('request-promotion-prod')).not.toBeInTheDocument();
    expect(screen.getByTestId('promotion-dialog')).toBeInTheDocument();
    expect(screen.getByTestId('promotion-pr-link')).toHaveTextContent('#42');
  });

  it("disables Promote for people the catalog does not name as the Product's owners", async () => {
    await renderLadderCard(
      { getLadder: jest.fn().mockResolvedValue(ladderReadyForProd('others')) },
      systemFor('others'),
      { user: { userEntityRef: 'user:default/dana', ownershipEntityRefs: ['user:default/dana', 'group:default/beta'] } },
    );
    const button = await screen.findByTestId('request-promotion-prod');
    await waitFor(() => expect(button).toBeDisabled());
    await userEvent.hover(button.parentElement!);
    expect(await screen.findByTestId('why-prod')).toHaveTextContent(
      "Only the Product's owners (alpha) and release-approvers (release-approvers) may request promotions",
    );
  });

  it('leaves it to the permission policy where the ownership rule is off', async () => {
    await renderLadderCard(
      { getLadder: jest.fn().mockResolvedValue(ladderReadyForProd('widened')) },
      systemFor('widened'),
      {
        user: { userEntityRef: 'user:default/dana', ownershipEntityRefs: ['user:default/dana'] },
        config: { promotions: { permissions: { requireOwnership: false } } },
      },
    );
    const button = await screen.findByTestId('request-promotion-prod');
    await waitFor(() => expect(button).toBeEnabled());
  });

  it('keeps the approval result on screen while the ladder refreshes', async () => {
    const awaiting = shopPromotion({ product: 'approved', status: 'awaiting-approval' });
    const approved = { ...awaiting, status: 'approved' as const, approvedBy: 'user:default/carol' };
    const ladder = (promotion: typeof awaiting) => ({ ...ladderOf('approved'), promotions: [promotion] });
    const getLadder = jest
      .fn()
      .mockResolvedValueOnce(ladder(awaiting))
      .mockResolvedValue(ladder(approved));
    const approvePromotion = jest.fn(async () => approved);
    await renderLadderCard({ getLadder, approvePromotion }, systemFor('approved'), {
      user: {
        userEntityRef: 'user:default/carol',
        ownershipEntityRefs: ['user:default/carol', 'group:default/release-approvers'],
      },
    });

    const approve = await screen.findByTestId('approve-p-1');
    await waitFor(() => expect(approve).toBeEnabled());
    await userEvent.click(approve);
    await userEvent.click(await screen.findByTestId('approve-confirm'));
    await waitFor(() =>
      expect(screen.getByTestId('promotion-status-p-1')).toHaveTextContent('Approved'),
    );
    expect(screen.queryByTestId('approve-p-1')).not.toBeInTheDocument();
    expect(screen.getByTestId('approve-result')).toHaveTextContent('Approved by carol');
  });

  it('says how each digest arrived: auto-promoted, promoted or rolled back by someone, with its PR', async () => {
    const ladder = shopLadder();
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    ladder.stages[1].services.cart.arrivedWith = {
      promotionId: 'p-2',
      kind: 'promotion',
      requestedBy: 'plugin:promotions/auto-promoter',
      pullRequest: { number: 2, url: 'https://github.example/pull/2' },
      mergedAt: minutesAgo(3),
    };
    ladder.stages[2].services.cart.arrivedWith = {
      promotionId: 'p-5',
      kind: 'rollback',
      requestedBy: 'user:default/bob',
      pullRequest: { number: 5, url: 'https://github.example/pull/5' },
      mergedAt: minutesAgo(60),
    };
    await renderLadderCard({ getLadder: jest.fn(async () => ladder) });

    const auto = await screen.findByTestId('arrived-test-cart');
    expect(auto).toHaveTextContent(/^auto-promoted 3 min\. ago · #2\b/);
    expect(within(auto).getByRole('link', { name: /^#2\b/ })).toHaveAttribute('href', 'https://github.example/pull/2');
    expect(screen.getByTestId('arrived-prod-cart')).toHaveTextContent(/^rolled back by bob 1 hr\. ago · #5\b/);
    // a digest nobody promoted through the plugin says nothing
    expect(screen.queryByTestId('arrived-dev-cart')).not.toBeInTheDocument();
  });
});
