import {
  ApiBlueprint,
  PageBlueprint,
  createRouteRef,
  discoveryApiRef,
  fetchApiRef,
} from '@backstage/frontend-plugin-api';
import { Content } from '@backstage/core-components';
import CheckCircleOutlineIcon from '@material-ui/icons/CheckCircleOutline';
import ViewModuleIcon from '@material-ui/icons/ViewModule';
import {
  EntityCardBlueprint,
  EntityContentBlueprint,
} from '@backstage/plugin-catalog-react/alpha';
import { PromotionsClient, promotionsApiRef } from '../api';
import { productSystemFilter, serviceComponentFilter } from './filters';

/** The client for `/api/promotions`, as the legacy plugin's `apis` provide it. */
export const promotionsApi = ApiBlueprint.make({
  params: defineParams =>
    defineParams({
      api: promotionsApiRef,
      deps: { discoveryApi: discoveryApiRef, fetchApi: fetchApiRef },
      factory: ({ discoveryApi, fetchApi }) =>
        new PromotionsClient({ discoveryApi, fetchApi }),
    }),
});

/** The promotion ladder on a Product's System page. */
export const promotionLadderEntityCard = EntityCardBlueprint.make({
  name: 'ladder',
  params: {
    type: 'content',
    filter: productSystemFilter,
    loader: () =>
      import('../components/LadderCard').then(m => (
        <m.EntityPromotionLadderCard />
      )),
  },
});

/** One Service's digest and health at every stage, on its Component page. */
export const servicePromotionsEntityCard = EntityCardBlueprint.make({
  name: 'service',
  params: {
    type: 'content',
    filter: serviceComponentFilter,
    loader: () =>
      import('../components/ServiceCard').then(m => (
        <m.EntityServicePromotionsCard />
      )),
  },
});

/**
 * A "Promotions" tab on a Product's System page: its promotions and
 * rollbacks, live and recent, by stage (the ladder is on the Overview).
 */
export const promotionsEntityContent = EntityContentBlueprint.make({
  params: {
    path: '/promotions',
    title: 'Promotions',
    filter: productSystemFilter,
    loader: () =>
      import('../components/PromotionHistory').then(m => (
        <m.EntityPromotionHistoryCard />
      )),
  },
});

/** Where the approvals inbox page is, for links from elsewhere in the app. */
export const approvalsRouteRef = createRouteRef();

/**
 * The approvals inbox at `/promotions/approvals`: every promotion awaiting
 * the signed-in release-approver, with Approve and Reject. Its title and icon
 * put it in the app's navigation; the app draws the page header.
 */
export const approvalsPage = PageBlueprint.make({
  name: 'approvals',
  params: {
    path: '/promotions/approvals',
    title: 'Approvals',
    icon: <CheckCircleOutlineIcon fontSize="inherit" />,
    routeRef: approvalsRouteRef,
    loader: () =>
      import('../components/Approvals').then(m => (
        <Content>
          <m.ApprovalsInbox />
        </Content>
      )),
  },
});

/** Where the organisation's promotions page is, for links from elsewhere in the app. */
export const rootRouteRef = createRouteRef();

/**
 * The organisation's promotions at `/promotions`: the matrix of every Product
 * by stage, the approvals inbox, the stuck list and the delivery metrics.
 * `/promotions/approvals` stays the approvals page of its own.
 */
export const promotionsPage = PageBlueprint.make({
  params: {
    path: '/promotions',
    title: 'Promotions',
    icon: <ViewModuleIcon fontSize="inherit" />,
    routeRef: rootRouteRef,
    loader: () =>
      import('../components/OverviewPage').then(m => (
        <m.PromotionsPageContent />
      )),
  },
});
