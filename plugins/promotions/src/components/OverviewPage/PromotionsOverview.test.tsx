import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { catalogApiRef, entityRouteRef } from '@backstage/plugin-catalog-react';
import { PromotionsApi, promotionsApiRef } from '../../api';
import { PromotionsPage } from '../../plugin';

const api: Partial<PromotionsApi> = {
  getOverview: jest.fn(async () => ({ stages: ['dev'], rows: [], total: 0 })),
  listApprovals: jest.fn(async () => []),
  listStuck: jest.fn(async () => []),
};

async function renderPage(entry: string) {
  await renderInTestApp(
    <TestApiProvider apis={[[promotionsApiRef, api], [catalogApiRef, { getEntities: jest.fn(async () => ({ items: [] })) }]]}>
      <Routes>
        <Route path="/promotions/*" element={<PromotionsPage />} />
      </Routes>
    </TestApiProvider>,
    { mountedRoutes: { '/catalog/:namespace/:kind/:name': entityRouteRef }, routeEntries: [entry] },
  );
}

describe("the legacy plugin's PromotionsPage", () => {
  it('opens on the matrix, with a header, and switches between the tabs', async () => {
    await renderPage('/promotions');
    expect(await screen.findByRole('heading', { name: 'Promotions' })).toBeInTheDocument();
    expect(await screen.findByTestId('matrix-empty')).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map(tab => tab.textContent)).toEqual(['Matrix', 'Approvals', 'Stuck', 'Metrics']);

    await userEvent.click(screen.getByTestId('tab-approvals'));
    expect(await screen.findByTestId('approvals-empty')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('tab-stuck'));
    expect(await screen.findByTestId('stuck-empty')).toBeInTheDocument();
  });

  it('opens the tab the address names', async () => {
    await renderPage('/promotions?tab=stuck');
    expect(await screen.findByTestId('stuck-empty')).toBeInTheDocument();
    expect(screen.getByTestId('tab-stuck')).toHaveAttribute('aria-selected', 'true');
  });
});
