import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { catalogApiRef, entityRouteRef } from '@backstage/plugin-catalog-react';
import { PromotionsApi, promotionsApiRef } from '../../api';
import { PromotionsPage } from '../../plugin';
import { PromotionsPageContent } from './PromotionsPageContent';

const api: Partial<PromotionsApi> = {
  getOverview: jest.fn(async () => ({ stages: ['dev'], rows: [], total: 0 })),
  listApprovals: jest.fn(async () => []),
  listStuck: jest.fn(async () => []),
  getWriteQueue: jest.fn(async () => ({ waiting: 0 })),
};

async function renderPage(entry: string, page = <PromotionsPage />) {
  await renderInTestApp(
    <TestApiProvider apis={[[promotionsApiRef, api], [catalogApiRef, { getEntities: jest.fn(async () => ({ items: [] })) }]]}>
      <Routes>
        <Route path="/promotions/*" element={page} />
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

describe("the new frontend system's promotions page content", () => {
  it('titles the page above its tabs, where the app draws only a breadcrumb bar', async () => {
    await renderPage('/promotions', <PromotionsPageContent />);
    const title = await screen.findByRole('heading', { name: 'Promotions' });
    expect(screen.getByText("Every Product's ladder, approvals, stuck deployments and delivery metrics")).toBeInTheDocument();
    expect(title.compareDocumentPosition(screen.getByRole('tablist')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(await screen.findByTestId('matrix-empty')).toBeInTheDocument();
  });
});
