/**
 * The promotions plugin for Backstage's new frontend system. Apps with
 * feature discovery (`app.packages: all`) install it with the package alone.
 *
 * @packageDocumentation
 */
import { createFrontendPlugin } from '@backstage/frontend-plugin-api';
import {
  promotionLadderEntityCard,
  promotionsApi,
  promotionsEntityContent,
  servicePromotionsEntityCard,
} from './alpha/extensions';

/**
 * The promotions plugin: its API client, the ladder card for Systems, the
 * Service card for Components and a Promotions tab for Systems.
 *
 * @alpha
 */
export default createFrontendPlugin({
  pluginId: 'promotions',
  extensions: [
    promotionsApi,
    promotionLadderEntityCard,
    servicePromotionsEntityCard,
    promotionsEntityContent,
  ],
});
