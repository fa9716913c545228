import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { renderInTestApp, TestApiProvider } from '@backstage/test-utils';
import { catalogApiRef, entityRouteRef } from '@backstage/plugin-catalog-react';
import { ApprovalItem, ApprovalSource } from '@refplat/plugin-promotions-common';
import { PromotionsApi, promotionsApiRef } from '../../api';
import { systemFor } from '../../__testUtils__/card';
import { conflict } from '../../__testUtils__/errors';
import { digest, shopPromotion } from '../../__testUtils__/ladders';
import { PromotionsApprovalsPage } from '../../plugin';
import { ApprovalsInbox } from './ApprovalsInbox';

const HOUR = 60 * 60 * 1000;

const awaiting = (id: string, product: string, hoursAgo: number, item: Partial<ApprovalItem> = {}): ApprovalItem => ({
  ...shopPromotion({
    id,
    product,
    fromStage: 'staging',
    toStage: 'prod',
    status: 'awaiting-approval',
    requestedBy: 'user:default/bob',
    services: { cart: digest('e') },
    previousServices: { cart: digest('c') },
    createdAt: new Date(Date.now() - hoursAgo * HOUR).toISOString(),
  }),
  awaiting: ['approvers'],
  ...item,
});

async function renderInbox(api: Partial<PromotionsApi>, element = <ApprovalsInbox />, routeEntries?: string[]) {
  const getEntities = jest.fn(async () => ({ items: [systemFor('shop')] }));
  await renderInTestApp(
    <TestApiProvider apis={[[promotionsApiRef, api], [catalogApiRef, { getEntities }]]}>
      {element}
    </TestApiProvider>,
    { mountedRoutes: { '/catalog/:namespace/:kind/:name': entityRouteRef }, routeEntries },
  );
  return { getEntities };
}

describe('ApprovalsInbox', () => {
  it('lists each promotion as the backend orders it: Product link, stages, digests old → new, requester, age', async () => {
    const listApprovals = jest.fn(async () => [awaiting('p-old', 'shop', 5), awaiting('p-new', 'payments', 1)]);
    const { getEntities } = await renderInbox({ listApprovals });

    const old = await screen.findByTestId('approval-p-old');
    expect(old).toHaveTextContent('staging → prod');
    expect(within(old).getByTestId('approval-change-p-old-cart')).toHaveTextContent('cart: ccccccc→eeeeeee');
    expect(old).toHaveTextContent('bob');
    expect(old).toHaveTextContent('5h');
    expect(old).not.toHaveTextContent('ago');
    expect(old).toHaveTextContent('#42');
    // The Product links to its System; one without a System in the catalog is plain text.
    const shopLink = await within(screen.getByTestId('approval-product-p-old')).findByRole('link');
    expect(shopLink).toHaveAttribute('href', '/catalog/default/system/shop');
    expect(within(screen.getByTestId('approval-product-p-new')).queryByRole('link')).toBeNull();
    expect(screen.getByTestId('approval-product-p-new')).toHaveTextContent('alpha/payments');
    expect(getEntities).toHaveBeenCalledTimes(1);

    const rows = screen.getAllByTestId(/^approval-p-/).map(row => row.dataset.testid);
    expect(rows).toEqual(['approval-p-old', 'approval-p-new']);
  });

  it("is the legacy plugin's routable page, with a header, where the app routes it", async () => {
    await renderInbox(
      { listApprovals: jest.fn(async () => []) },
      <Routes>
        <Route path="/promotions/approvals" element={<PromotionsApprovalsPage />} />
      </Routes>,
      ['/promotions/approvals'],
    );
    expect(await screen.findByRole('heading', { name: 'Approvals' })).toBeInTheDocument();
    expect(await screen.findByTestId('approvals-empty')).toBeInTheDocument();
  });

  it('shows what changed between the two stages, as on the ladder', async () => {
    const getChanges = jest.fn(async () => ({ fromStage: 'staging', toStage: 'prod', items: [] }));
    await renderInbox({ listApprovals: jest.fn(async () => [awaiting('p-1', 'shop', 1)]), getChanges });
    await userEvent.click(within(await screen.findByTestId('approval-p-1')).getByTestId('changes-prod'));
    expect(await screen.findByTestId('what-changed-nothing')).toBeInTheDocument();
    expect(getChanges).toHaveBeenCalledWith({ team: 'alpha', product: 'shop' }, 'staging', 'prod');
  });

  it("shows the source stage's health and soak per service, and when an incident commander is needed", async () => {
    const source = (services: ApprovalSource['services']): ApprovalSource => ({ stage: 'staging', soakSeconds: 600, services });
    const cart = { service: 'cart', digest: digest('e') };
    const listApprovals = jest.fn(async () => [
      awaiting('p-soaked', 'shop', 3, {
        services: { cart: digest('e'), checkout: digest('f') },
        source: source([
          { ...cart, stillInSource: true, verdict: 'healthy', healthySince: '2026-12-01T10:00:00Z', soakRemainingSeconds: 0 },
          { service: 'checkout', digest: digest('f'), stillInSource: true, verdict: 'healthy', soakRemainingSeconds: 250 },
        ]),
      }),
      awaiting('p-moved', 'shop', 2, {
        source: source([{ ...cart, stillInSource: false, nowInSource: digest('a'), verdict: 'unhealthy' }]),
        awaiting: ['incident-commander'],
      }),
      awaiting('p-rollback', 'shop', 1, { kind: 'rollback' }),
    ]);
    await renderInbox({ listApprovals });

    const soaked = await screen.findByTestId('approval-source-p-soaked-cart');
    expect(within(soaked).getByTestId('health-healthy')).toBeInTheDocument();
    expect(soaked).toHaveTextContent('Healthysoaked');
    const soaking = screen.getByTestId('approval-source-p-soaked-checkout');
    expect(within(soaking).getByTestId('approval-source-p-soaked-checkout-soak')).toHaveTextContent(/Soaking: 4m \d+s left/);
    expect(screen.queryByTestId('approval-awaiting-p-soaked')).toBeNull();

    const moved = screen.getByTestId('approval-source-p-moved-cart');
    expect(within(moved).getByTestId('health-unhealthy')).toBeInTheDocument();
    expect(moved).toHaveTextContent('moved on to aaaaaaa');
    expect(moved).not.toHaveTextContent('soak');
    expect(screen.getByTestId('approval-awaiting-p-moved')).toHaveTextContent('needs an incident commander');

    expect(screen.getByTestId('approval-source-p-rollback')).toHaveTextContent('a rollback');
  });

  it('says so when nothing waits', async () => {
    await renderInbox({ listApprovals: jest.fn(async () => []) });
    expect(await screen.findByTestId('approvals-empty')).toHaveTextContent('Nothing waits for your approval.');
  });

  it('approves through the ladder\'s dialog, then shows the inbox without it', async () => {
    const promotion = awaiting('p-1', 'shop', 2);
    const listApprovals = jest.fn().mockResolvedValueOnce([promotion]).mockResolvedValue([]);
    const approvePromotion = jest.fn(async () => ({
      ...promotion,
      status: 'approved' as const,
      approvedBy: 'user:default/alice',
    }));
    await renderInbox({ listApprovals, approvePromotion });

    await userEvent.click(await screen.findByTestId('approve-p-1'));
    const dialog = await screen.findByTestId('approve-dialog');
    expect(within(dialog).getByTestId('approve-change-cart')).toHaveTextContent('ccccccc→eeeeeee');
    await userEvent.click(within(dialog).getByTestId('approve-confirm'));

    expect(await screen.findByTestId('approve-result')).toHaveTextContent('Approved by alice');
    expect(approvePromotion).toHaveBeenCalledWith('p-1');
    expect(await screen.findByTestId('approvals-empty')).toBeInTheDocument();
  });

  it('rejects only with a reason, sends it trimmed, and refreshes the inbox', async () => {
    const promotion = awaiting('p-1', 'shop', 2);
    const listApprovals = jest.fn().mockResolvedValueOnce([promotion]).mockResolvedValue([]);
    const rejectPromotion = jest.fn(async () => ({ ...promotion, status: 'closed' as const }));
    await renderInbox({ listApprovals, rejectPromotion });

    await userEvent.click(await screen.findByTestId('reject-p-1'));
    const dialog = await screen.findByTestId('reject-dialog');
    expect(dialog).toHaveTextContent('Reject promotion staging → prod of alpha/shop');
    const confirm = within(dialog).getByTestId('reject-confirm');
    expect(confirm).toBeDisabled();
    await userEvent.type(within(dialog).getByTestId('reject-reason'), '   ');
    expect(confirm).toBeDisabled();
    await userEvent.type(within(dialog).getByTestId('reject-reason'), 'cart 2.3 breaks checkout  ');
    await userEvent.click(confirm);

    expect(rejectPromotion).toHaveBeenCalledWith('p-1', 'cart 2.3 breaks checkout');
    await waitFor(() => expect(screen.queryByTestId('reject-dialog')).toBeNull());
    expect(await screen.findByTestId('approvals-empty')).toBeInTheDocument();
    expect(listApprovals).toHaveBeenCalledTimes(2);
  });

  it("shows the backend's refusal in the dialog and keeps the row", async () => {
    const promotion = awaiting('p-1', 'shop', 2);
    const listApprovals = jest.fn(async () => [promotion]);
    const rejectPromotion = jest.fn(async () => {
      throw await conflict('Nothing to reject: promotion p-1 is merged');
    });
    await renderInbox({ listApprovals, rejectPromotion });

    await userEvent.click(await screen.findByTestId('reject-p-1'));
    await userEvent.type(await screen.findByTestId('reject-reason'), 'too late?');
    await userEvent.click(screen.getByTestId('reject-confirm'));

    expect(await screen.findByTestId('reject-error')).toHaveTextContent('Nothing to reject: promotion p-1 is merged');
    expect(screen.getByTestId('approval-p-1')).toBeInTheDocument();
  });

  it('cannot approve or reject before the pull request is open', async () => {
    const opening = { ...awaiting('p-1', 'shop', 0), pullRequest: { number: 0, url: '' } };
    await renderInbox({ listApprovals: jest.fn(async () => [opening]) });
    expect(await screen.findByTestId('approve-p-1')).toBeDisabled();
    expect(screen.getByTestId('reject-p-1')).toBeDisabled();
  });
});
