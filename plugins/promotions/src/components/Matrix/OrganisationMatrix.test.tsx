import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { catalogApiRef, entityRouteRef } from '@backstage/plugin-catalog-react';
import { OverviewCell, OverviewResponse, OverviewRow } from '@refplat/plugin-promotions-common';
import { OverviewQuery, PromotionsApi, promotionsApiRef } from '../../api';
import { systemFor } from '../../__testUtils__/card';
import { OrganisationMatrix } from './OrganisationMatrix';

const NOW = new Date('2027-01-10T12:00:00Z');
const STAGES = ['dev', 'test', 'prod'];

const cell = (stage: string, change: Partial<OverviewCell> = {}): OverviewCell => ({
  stage,
  verdict: 'healthy',
  matchesBelow: true,
  holds: 0,
  openPromotions: 0,
  awaitingApproval: 0,
  ...change,
});

const row = (product: string, cells: OverviewCell[] = STAGES.map(s => cell(s))): OverviewRow => ({
  product,
  team: product.split('/')[0],
  owners: [`group:default/${product.split('/')[0]}`],
  cells,
});

const shop = row('alpha/shop', [
  cell('dev'),
  cell('test', { verdict: 'stuck', matchesBelow: false, behindSince: '2027-01-10T09:30:00Z', holds: 1 }),
  cell('prod', { openPromotions: 2, awaitingApproval: 1 }),
]);

async function renderMatrix(getOverview: PromotionsApi['getOverview']) {
  const getEntities = jest.fn(async () => ({ items: [systemFor('shop')] }));
  await renderInTestApp(
    <TestApiProvider apis={[[promotionsApiRef, { getOverview }], [catalogApiRef, { getEntities }]]}>
      <Routes>
        <Route path="/" element={<OrganisationMatrix now={NOW} />} />
        <Route path="/catalog/:namespace/:kind/:name" element={<div data-testid="system-page" />} />
      </Routes>
    </TestApiProvider>,
    { mountedRoutes: { '/catalog/:namespace/:kind/:name': entityRouteRef } },
  );
}

const pageOf = (rows: OverviewRow[], total: number, nextCursor?: string): OverviewResponse => ({
  stages: STAGES,
  rows,
  total,
  nextCursor,
});

describe('OrganisationMatrix', () => {
  it('shows each stage of each Product: verdict, behind for how long, holds, open promotions', async () => {
    await renderMatrix(jest.fn(async () => pageOf([shop, row('beta/payments')], 2)));

    const stuck = await screen.findByTestId('matrix-cell-alpha/shop-test');
    expect(stuck).toHaveAttribute('data-verdict', 'stuck');
    expect(stuck).toHaveTextContent('Stuck');
    expect(stuck).toHaveTextContent('behind 2h 30m · 1 held');
    expect(screen.getByTestId('matrix-cell-alpha/shop-prod')).toHaveTextContent(
      'Healthy' + 'up to date · 2 open (1 awaiting approval)',
    );
    expect(screen.getByTestId('matrix-row-beta/payments')).toHaveTextContent('beta');
    expect(screen.getAllByRole('columnheader').map(h => h.textContent)).toEqual(['Product', ...STAGES]);
    expect(screen.getByTestId('matrix-count')).toHaveTextContent('2 of 2 Products');
  });

  it('opens the Product’s System page, where its ladder is, on a click', async () => {
    await renderMatrix(jest.fn(async () => pageOf([shop], 1)));
    const shopRow = await screen.findByTestId('matrix-row-alpha/shop');
    await waitFor(() => expect(within(shopRow).getByRole('link')).toHaveAttribute('href', '/catalog/default/system/shop'));
    await userEvent.click(screen.getByTestId('matrix-cell-alpha/shop-prod'));
    expect(await screen.findByTestId('system-page')).toBeInTheDocument();
  });

  it('asks the backend for the filters chosen, and shows when nothing matches', async () => {
    const getOverview = jest.fn(async (query?: OverviewQuery) =>
      query?.filter === 'stuck' && query.team === 'alpha' ? pageOf([], 0) : pageOf([shop], 1),
    );
    await renderMatrix(getOverview);
    await screen.findByTestId('matrix-row-alpha/shop');

    fireEvent.change(screen.getByTestId('matrix-filter'), { target: { value: 'stuck' } });
    await userEvent.type(screen.getByTestId('matrix-team'), 'alpha');

    expect(await screen.findByTestId('matrix-empty')).toBeInTheDocument();
    expect(getOverview).toHaveBeenLastCalledWith({ filter: 'stuck', team: 'alpha', owner: undefined, cursor: undefined, limit: 100 });
  });

  it('reads the next page as the list nears its end, and draws only the rows in view', async () => {
    const many = Array.from({ length: 100 }, (_, i) => row(`team${String(i).padStart(3, '0')}/p`));
    const more = Array.from({ length: 100 }, (_, i) => row(`team${String(i + 100).padStart(3, '0')}/p`));
    const getOverview = jest.fn(async (query?: OverviewQuery) =>
      query?.cursor === 'page-2' ? pageOf(more, 200) : pageOf(many, 200, 'page-2'),
    );
    await renderMatrix(getOverview);
    await screen.findByTestId('matrix-row-team000/p');
    expect(screen.getAllByTestId(/^matrix-row-/).length).toBeLessThan(20);

    const list = screen.getByTestId('matrix-row-team000/p').parentElement!.parentElement!;
    // jsdom lays nothing out: give the list the sizes a browser would.
    Object.defineProperty(list, 'scrollHeight', { value: 100 * 64 });
    Object.defineProperty(list, 'clientHeight', { value: 10 * 64 });
    list.scrollTop = 90 * 64;
    fireEvent.scroll(list);
    await waitFor(() => expect(screen.getByTestId('matrix-count')).toHaveTextContent('200 of 200 Products'));
    expect(getOverview).toHaveBeenCalledWith(expect.objectContaining({ cursor: 'page-2' }));
    expect(getOverview).toHaveBeenCalledTimes(2);
  });
});
