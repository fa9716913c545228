import { useState } from 'react';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Diagnosis, Ladder, summarizeLadder } from '@refplat/plugin-promotions-common';
import { shopLadder } from '../../__testUtils__/ladders';
import { renderWithPromotionsApis } from '../../__testUtils__/render';
import { LadderTable } from '../LadderCard/LadderTable';

const stuckDiagnosis: Diagnosis = {
  state: 'stuck',
  code: 'merged-out-of-sync',
  lastCompletedStep: 'PR merged to main',
  likelyCause: 'ArgoCD has not synced the new Release for 12m',
  whereToLook: [
    { label: 'ArgoCD Application shop-test', url: 'https://argocd.example.com/applications/shop-test' },
    { label: 'gitops/releases/alpha/shop/test.yaml' },
  ],
};

/** shop with cart stuck in test and storefront's canary in progress in dev. */
function ladderWithStuckTest(): Ladder {
  const ladder = shopLadder();
  const test = ladder.stages[1];
  test.stuck = true;
  test.services.cart.diagnosis = stuckDiagnosis;
  test.services.cart.reasons = ['OutOfSync: the running digest differs from the Release'];
  ladder.stages[0].services.storefront.diagnosis = {
    state: 'in-progress',
    code: 'canary-soaking',
    lastCompletedStep: 'Canary at 25%',
    likelyCause: 'The canary is soaking',
    whereToLook: [],
  };
  ladder.stages[0].services.cart.diagnosis = {
    state: 'ok',
    code: 'healthy',
    lastCompletedStep: 'Serving',
    likelyCause: '',
    whereToLook: [],
  };
  return ladder;
}

async function renderLadder(ladder: Ladder) {
  return renderWithPromotionsApis(<LadderTable ladder={ladder} onChanged={jest.fn()} />, {
    api: { listPromotions: jest.fn(async () => []) },
  });
}

describe('Diagnosis', () => {
  it('marks a stuck stage with a red chip that opens the first stuck service', async () => {
    await renderLadder(ladderWithStuckTest());

    expect(screen.queryByTestId('stuck-dev')).not.toBeInTheDocument();
    const chip = await screen.findByTestId('stuck-test');
    expect(chip).toHaveTextContent('Stuck');
    await userEvent.click(chip);

    const panel = await screen.findByTestId('diagnosis-panel');
    expect(panel).toHaveTextContent('cart in test');
    expect(within(panel).getByTestId('diagnosis-state')).toHaveTextContent('Stuck');
    expect(within(panel).getByTestId('diagnosis-last-step')).toHaveTextContent(
      'Last completed step: PR merged to main',
    );
    expect(within(panel).getByTestId('diagnosis-likely-cause')).toHaveTextContent(
      'Likely cause: ArgoCD has not synced the new Release for 12m',
    );
    const places = within(panel).getByTestId('diagnosis-where-to-look');
    expect(within(places).getByRole('link', { name: /ArgoCD Application shop-test/ })).toHaveAttribute(
      'href',
      'https://argocd.example.com/applications/shop-test',
    );
    expect(places).toHaveTextContent('gitops/releases/alpha/shop/test.yaml');
    expect(within(places).getAllByRole('link')).toHaveLength(1);
    expect(within(panel).getByTestId('diagnosis-health-reasons')).toHaveTextContent(
      'OutOfSync: the running digest differs from the Release',
    );
  });

  it("reads a summary ladder's cell from the cell route when its diagnosis opens, not before", async () => {
    const full = ladderWithStuckTest();
    const getLadderCell = jest.fn(async (_: unknown, stage: string, service: string) =>
      full.stages.find(candidate => candidate.name === stage)!.services[service],
    );
    await renderWithPromotionsApis(<LadderTable ladder={summarizeLadder(full)} onChanged={jest.fn()} />, {
      api: { listPromotions: jest.fn(async () => []), getLadderCell },
    });
    // The brief draws the chips: stuck, in progress with its cause, ok without a diagnosis.
    expect(await screen.findByTestId('health-test-cart')).toHaveAttribute('data-diagnosis', 'stuck');
    expect(screen.getByTestId('health-dev-cart')).not.toHaveAttribute('data-diagnosis');
    const inProgress = within(screen.getByTestId('health-dev-storefront')).getByRole('button', { name: 'In progress' });
    await userEvent.hover(inProgress);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('In progress: The canary is soaking');
    await userEvent.unhover(inProgress);
    expect(getLadderCell).not.toHaveBeenCalled();

    await userEvent.click(screen.getByTestId('stuck-test'));
    const panel = await screen.findByTestId('diagnosis-panel');
    expect(await within(panel).findByTestId('diagnosis-state')).toHaveTextContent('Stuck');
    expect(within(panel).getByTestId('diagnosis-likely-cause')).toHaveTextContent(
      'Likely cause: ArgoCD has not synced the new Release for 12m',
    );
    expect(within(panel).getByTestId('diagnosis-where-to-look')).toHaveTextContent('gitops/releases/alpha/shop/test.yaml');
    expect(getLadderCell).toHaveBeenCalledTimes(1);
    expect(getLadderCell).toHaveBeenCalledWith({ team: 'alpha', product: 'shop' }, 'test', 'cart');
  });

  it('reads the open cell again when a live refresh brings it anew, and shows what changed', async () => {
    const first = ladderWithStuckTest();
    const next = ladderWithStuckTest();
    next.stages[1].services.cart.diagnosis = { ...stuckDiagnosis, likelyCause: 'ArgoCD has not synced the new Release for 20m' };
    let served = first;
    const getLadderCell = jest.fn(async (_: unknown, stage: string, service: string) =>
      served.stages.find(candidate => candidate.name === stage)!.services[service],
    );
    let show: (ladder: Ladder) => void = () => undefined;
    const Live = () => {
      const [ladder, setLadder] = useState(summarizeLadder(first));
      show = setLadder;
      return <LadderTable ladder={ladder} onChanged={jest.fn()} />;
    };
    await renderWithPromotionsApis(<Live />, { api: { listPromotions: jest.fn(async () => []), getLadderCell } });
    await userEvent.click(await screen.findByTestId('stuck-test'));
    const panel = await screen.findByTestId('diagnosis-panel');
    expect(await within(panel).findByTestId('diagnosis-likely-cause')).toHaveTextContent('12m');

    served = next;
    act(() => show(summarizeLadder(next)));

    await waitFor(() => expect(within(panel).getByTestId('diagnosis-likely-cause')).toHaveTextContent('20m'));
    expect(getLadderCell).toHaveBeenCalledTimes(2);
  });

  it("says why when a summary ladder's cell cannot be read, and still shows its health reasons", async () => {
    const getLadderCell = jest.fn(async () => {
      throw new Error('the backend is restarting');
    });
    await renderWithPromotionsApis(<LadderTable ladder={summarizeLadder(ladderWithStuckTest())} onChanged={jest.fn()} />, {
      api: { listPromotions: jest.fn(async () => []), getLadderCell },
    });
    await userEvent.click(await screen.findByTestId('stuck-test'));
    const panel = await screen.findByTestId('diagnosis-panel');
    expect(await within(panel).findByText(/Cannot read the diagnosis of cart in test: the backend is restarting/)).toBeInTheDocument();
    expect(within(panel).getByTestId('diagnosis-health-reasons')).toHaveTextContent(
      'OutOfSync: the running digest differs from the Release',
    );
  });

  it("opens a cell's diagnosis from its health chip when stuck, in progress or unknown, not when ok", async () => {
    await renderLadder(ladderWithStuckTest());
    expect(await screen.findByTestId('health-test-cart')).toHaveAttribute('data-diagnosis', 'stuck');
    expect(screen.getByTestId('health-dev-cart')).not.toHaveAttribute('data-diagnosis');
    expect(screen.getByTestId('health-prod-cart')).not.toHaveAttribute('data-diagnosis');
    // No chip of an ok cell opens anything.
    expect(within(screen.getByTestId('health-dev-cart')).getByTestId('health-healthy')).not.toHaveAttribute(
      'role',
      'button',
    );

    const chip = within(screen.getByTestId('health-dev-storefront')).getByRole('button', { name: 'In progress' });
    await userEvent.hover(chip);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      'In progress: The canary is soaking (click for the diagnosis)',
    );
    await userEvent.click(chip);
    const panel = await screen.findByTestId('diagnosis-panel');
    expect(panel).toHaveTextContent('storefront in dev');
    expect(within(panel).getByTestId('diagnosis-state')).toHaveTextContent('In progress');
    expect(panel).toHaveTextContent('Last completed step: Canary at 25%');
    expect(panel).toHaveTextContent('Canary in progress: step 2 of 6, 25% of traffic');
  });

  it('shows the hop a cell stalled at, its evidence, when it was seen and the command to copy; a waiting analysis as not stuck', async () => {
    const ladder = ladderWithStuckTest();
    const seenAt = new Date(Date.now() - 3 * 60 * 1000).toISOString();
    const evidence = 'Kyverno policy verify-image/check-signature denied the Pod: failed to verify image';
    const command = 'kubectl -n alpha-shop-test describe replicaset cart-6c9f8b7d4';
    ladder.stages[1].services.cart.diagnosis = {
      ...stuckDiagnosis,
      code: 'hop-stalled',
      likelyCause: evidence,
      hops: [
        { hop: 'registry', mark: 'completed' },
        { hop: 'admission', mark: 'stalled', evidence, seenAt, lookAt: { kind: 'kubectl', text: command } },
        { hop: 'scheduling', mark: 'not-reached' },
      ],
    };
    ladder.stages[0].services.storefront.diagnosis!.hops = [
      {
        hop: 'analysis-window',
        mark: 'waiting',
        evidence: "Waiting for the analysis window (success-rate: 2 of 5 measurements), not stuck; the canary's pause still runs 3m",
      },
    ];
    await renderLadder(ladder);

    const chip = within(await screen.findByTestId('health-test-cart')).getByRole('button');
    await userEvent.hover(chip);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(`Stuck at admission: ${evidence}`);
    await userEvent.click(chip);
    const hop = within(await screen.findByTestId('diagnosis-panel')).getByTestId('diagnosis-hop');
    expect(hop).toHaveAttribute('data-mark', 'stalled');
    expect(hop).toHaveTextContent(`Stalled at admission (seen 3 minutes ago): ${evidence}`);
    expect(within(hop).getByTestId('hop-command')).toHaveTextContent(command);
    expect(within(hop).getByRole('button', { name: 'Copy the command' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /close/i }));

    await userEvent.click(within(screen.getByTestId('health-dev-storefront')).getByRole('button', { name: 'In progress' }));
    const waiting = within(await screen.findByTestId('diagnosis-panel')).getByTestId('diagnosis-hop');
    expect(waiting).toHaveTextContent('Waiting at analysis window: Waiting for the analysis window');
    expect(waiting).toHaveTextContent("not stuck; the canary's pause still runs 3m");
  });
});
