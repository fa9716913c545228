import { LoggerService } from '@backstage/backend-plugin-api';
import { EventsService } from '@backstage/plugin-events-node';
import { subscribeToGithubWebhooks } from '../events/createPromotionsWebhooks';
import { PromotionsParts } from './promotionsRoot';

/** What the plugin hears through Backstage's events: GitHub's webhooks and the incident topic. */
export async function subscribePromotions(
  { config, people, repo, stores, promotions }: PromotionsParts,
  events: EventsService,
  logger: LoggerService,
) {
  await subscribeToGithubWebhooks({
    events,
    config,
    reader: repo.reader,
    store: stores.promotions,
    gate: promotions.gate,
    broadcaster: people.broadcaster,
    autoPromoter: promotions.autoPromoter,
    logger,
  });
  await promotions.incidentService?.subscribe(events);
}
