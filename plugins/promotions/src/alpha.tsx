/**
 * The promotions plugin for Backstage's new frontend system. Apps with
 * feature discovery (`app.packages: all`) install it with the package alone.
 *
 * @packageDocumentation
 */
import {
  OverridableFrontendPlugin,
  createFrontendPlugin,
} from '@backstage/frontend-plugin-api';
import {
  approvalsPage,
  approvalsRouteRef,
  promotionLadderEntityCard,
  promotionsApi,
  promotionsEntityContent,
  promotionsPage,
  rootRouteRef,
  servicePromotionsEntityCard,
} from './alpha/extensions';

/**
 * The promotions plugin: its API client, the ladder card for Systems, the
 * Service card for Components, a Promotions tab for Systems and the
 * approvals inbox page at `/promotions/approvals` and the organisation's
 * promotions page at `/promotions`.
 *
 * Typed as a plain plugin: the inferred type spells out every extension's
 * data refs in an order the compiler does not keep stable, which would make
 * the API report differ from one build to the next.
 *
 * @alpha
 */
const promotionsPlugin: OverridableFrontendPlugin = createFrontendPlugin({
  pluginId: 'promotions',
  extensions: [
    promotionsApi,
    promotionLadderEntityCard,
    servicePromotionsEntityCard,
    promotionsEntityContent,
    approvalsPage,
    promotionsPage,
  ],
  routes: { root: rootRouteRef, approvals: approvalsRouteRef },
});

export default promotionsPlugin;
