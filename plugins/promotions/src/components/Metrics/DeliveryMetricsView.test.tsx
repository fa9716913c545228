import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DeliveryMetricsResponse, MetricsScope } from '../../api';
import { renderWithPromotionsApis } from '../../__testUtils__/render';
import { DeliveryMetricsView } from './DeliveryMetricsView';

const HOUR = 60 * 60 * 1000;

function metrics(from: Date, to: Date): DeliveryMetricsResponse {
  return {
    scope: 'org',
    products: ['alpha/shop', 'beta/payments'],
    from: from.toISOString(),
    to: to.toISOString(),
    deploymentFrequency: [
      { stage: 'dev', deployments: 8, perWeek: 2 },
      { stage: 'test', deployments: 6, perWeek: 1.5 },
      { stage: 'prod', deployments: 4, perWeek: 1 },
    ],
    leadTime: {
      samples: 4,
      medianMs: 9 * HOUR,
      p90Ms: 11.4 * HOUR,
      rungs: [
        { fromStage: 'dev', toStage: 'test', samples: 4, medianMs: 1 * HOUR, p90Ms: 1.7 * HOUR },
        { fromStage: 'test', toStage: 'prod', samples: 4, medianMs: 8 * HOUR, p90Ms: 10 * HOUR },
      ],
    },
    changeFailureRate: { changes: 4, failures: 2, rollbacks: 1, fixForwards: 1, rate: 0.5 },
    timeToRestore: { samples: 2, medianMs: 8.5 * HOUR, p90Ms: 14.5 * HOUR },
  };
}

const getMetrics = () =>
  jest.fn(async (_scope: MetricsScope, window: { from: Date; to: Date }) => metrics(window.from, window.to));

describe('DeliveryMetricsView', () => {
  const now = new Date('2027-01-17T15:00:00Z');

  it("reads the organisation's last four weeks, whole and week by week, and shows each metric with its samples and definition", async () => {
    const api = { getMetrics: getMetrics() };
    await renderWithPromotionsApis(<DeliveryMetricsView now={now} />, { api });

    expect(await screen.findByTestId('metric-deployment-frequency-headline')).toHaveTextContent(
      '18 deployments over 3 stages (samples: dev 8, test 6, prod 4)',
    );
    expect(screen.getByTestId('metric-lead-time-headline')).toHaveTextContent(
      'Median 9h, p90 11h 24m (samples: 4; per rung: dev → test 4, test → prod 4)',
    );
    expect(screen.getByTestId('metric-change-failure-headline')).toHaveTextContent(
      'Change-failure rate 50% (2 of 4 changes: 1 rolled back, 1 fixed forward) · time to restore median 8h 30m, p90 14h 30m (samples: 2)',
    );
    expect(screen.getByTestId('metric-lead-time')).toHaveTextContent(/first arrival in the first stage/);
    expect(screen.getByTestId('metric-change-failure')).toHaveTextContent(/Rollbacks are not changes themselves/);
    expect(screen.getByTestId('metrics-products')).toHaveTextContent('2 Products counted: alpha/shop, beta/payments');
    // The stages' trends are small multiples: one chart per stage, in the ladder's order, on one scale
    // (test's chart reaches up to dev's 8, not its own 6).
    const weekByWeek = screen.getByRole('region', { name: 'Deployments by stage, week by week' });
    const stageCharts = within(weekByWeek).getAllByRole('figure');
    expect(stageCharts.map(chart => chart.getAttribute('aria-label'))).toEqual(
      ['dev', 'test', 'prod'].map(stage => `Deployments by stage, week by week: ${stage}`),
    );
    const yTicks = (chart: HTMLElement) =>
      [...chart.querySelectorAll('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value')].map(tick => tick.textContent);
    expect(stageCharts.map(chart => yTicks(chart).at(-1))).toEqual(['8', '8', '8']);
    for (const chart of stageCharts) expect(chart.querySelectorAll('.recharts-line')).toHaveLength(1);

    // The whole window, then its four weeks for the trends.
    const windows = api.getMetrics.mock.calls.map(([scope, w]) => [
      scope.kind,
      w.from.toISOString().slice(0, 10),
      w.to.toISOString().slice(0, 10),
    ]);
    expect(windows).toEqual([
      ['org', '2026-12-21', '2027-01-18'],
      ['org', '2026-12-21', '2026-12-28'],
      ['org', '2026-12-28', '2027-01-04'],
      ['org', '2027-01-04', '2027-01-11'],
      ['org', '2027-01-11', '2027-01-18'],
    ]);
    // Charts are drawn by recharts: bars per stage and per rung, and trend lines.
    expect(screen.getByRole('figure', { name: 'Deployments per week by stage' }).querySelectorAll('.recharts-bar-rectangle')).toHaveLength(3);
    const perRung = screen.getByRole('figure', { name: 'Lead time per rung, hours' });
    expect(perRung.querySelectorAll('.recharts-bar-rectangle')).toHaveLength(4);
    // Every rung is named down the side of its chart.
    expect([...perRung.querySelectorAll('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value')].map(tick => tick.textContent)).toEqual([
      'dev → test',
      'test → prod',
    ]);
  });

  it("reads one team's metrics over the window asked for", async () => {
    const api = { getMetrics: getMetrics() };
    await renderWithPromotionsApis(<DeliveryMetricsView now={now} />, { api });
    await screen.findByTestId('metric-lead-time');

    fireEvent.change(screen.getByTestId('metrics-scope-kind'), { target: { value: 'team' } });
    await userEvent.type(await screen.findByTestId('metrics-scope-name'), 'alpha');
    fireEvent.change(screen.getByTestId('metrics-from'), { target: { value: '2027-01-04' } });
    fireEvent.change(screen.getByTestId('metrics-to'), { target: { value: '2027-01-11' } });
    await userEvent.click(screen.getByTestId('metrics-show'));

    await waitFor(() =>
      expect(api.getMetrics).toHaveBeenCalledWith(
        { kind: 'team', team: 'alpha' },
        { from: new Date('2027-01-04T00:00:00Z'), to: new Date('2027-01-11T00:00:00Z') },
      ),
    );
    expect(await screen.findByTestId('metric-lead-time')).toBeInTheDocument();
  });

  it("starts from a Product's scope when given one, and says when the metrics cannot be read", async () => {
    const api = { getMetrics: jest.fn(async (_scope: MetricsScope) => Promise.reject(new Error('backend down'))) };
    await renderWithPromotionsApis(
      <DeliveryMetricsView now={now} scope={{ kind: 'product', product: { team: 'alpha', product: 'shop' } }} />,
      { api },
    );
    expect(await screen.findByText(/Cannot read the delivery metrics/)).toBeInTheDocument();
    expect(api.getMetrics.mock.calls[0][0]).toEqual({ kind: 'product', product: { team: 'alpha', product: 'shop' } });
  });
});
