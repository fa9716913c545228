import {
  createApiFactory,
  createComponentExtension,
  createPlugin,
  createRoutableExtension,
  createRouteRef,
  discoveryApiRef,
  fetchApiRef,
} from '@backstage/core-plugin-api';
import { PromotionsClient, promotionsApiRef } from './api';

/**
 * Where the approvals inbox is mounted in a legacy app.
 *
 * @public
 */
export const promotionsApprovalsRouteRef = createRouteRef({ id: 'promotions-approvals' });

/**
 * Where the organisation's promotions page is mounted in a legacy app.
 *
 * @public
 */
export const promotionsRootRouteRef = createRouteRef({ id: 'promotions' });

/**
 * The promotions plugin for the legacy frontend system (see `/alpha` for the
 * new one).
 *
 * @public
 */
export const promotionsPlugin = createPlugin({
  id: 'promotions',
  apis: [
    createApiFactory({
      api: promotionsApiRef,
      deps: { discoveryApi: discoveryApiRef, fetchApi: fetchApiRef },
      factory: ({ discoveryApi, fetchApi }) =>
        new PromotionsClient({ discoveryApi, fetchApi }),
    }),
  ],
  routes: { root: promotionsRootRouteRef, approvals: promotionsApprovalsRouteRef },
});

/**
 * The approvals inbox as a page: every promotion awaiting the signed-in
 * release-approver's approval, oldest first, with Approve and Reject.
 * Mount it at a route of the app, e.g. `/promotions/approvals`.
 *
 * @public
 */
export const PromotionsApprovalsPage = promotionsPlugin.provide(
  createRoutableExtension({
    name: 'PromotionsApprovalsPage',
    component: () => import('./components/Approvals').then(m => m.ApprovalsPage),
    mountPoint: promotionsApprovalsRouteRef,
  }),
);

/**
 * The organisation's promotions as a page, one tab each: the matrix of every
 * Product by stage, the approvals inbox, the stuck list and the delivery
 * metrics. Mount it at a route of the app, e.g. `/promotions`.
 *
 * @public
 */
export const PromotionsPage = promotionsPlugin.provide(
  createRoutableExtension({
    name: 'PromotionsPage',
    component: () => import('./components/OverviewPage').then(m => m.PromotionsPage),
    mountPoint: promotionsRootRouteRef,
  }),
);

/**
 * The promotion ladder of the Product a System entity represents.
 *
 * @public
 */
export const EntityPromotionLadderCard = promotionsPlugin.provide(
  createComponentExtension({
    name: 'EntityPromotionLadderCard',
    component: {
      lazy: () =>
        import('./components/LadderCard').then(m => m.EntityPromotionLadderCard),
    },
  }),
);

/**
 * The Product's promotions and rollbacks, live and recent, filterable by
 * stage: for a System's Promotions tab.
 *
 * @public
 */
export const EntityPromotionHistoryCard = promotionsPlugin.provide(
  createComponentExtension({
    name: 'EntityPromotionHistoryCard',
    component: {
      lazy: () =>
        import('./components/PromotionHistory').then(m => m.EntityPromotionHistoryCard),
    },
  }),
);

/**
 * One Service's digest and health at every stage, for a Component entity.
 *
 * @public
 */
export const EntityServicePromotionsCard = promotionsPlugin.provide(
  createComponentExtension({
    name: 'EntityServicePromotionsCard',
    component: {
      lazy: () =>
        import('./components/ServiceCard').then(
          m => m.EntityServicePromotionsCard,
        ),
    },
  }),
);
