import { LoggerService } from '@backstage/backend-plugin-api';
import { EventsService } from '@backstage/plugin-events-node';
import { PromotionsConfig } from '../config';
import { PromotionStore } from '../database/PromotionStore';
import { PlatformRepoReader } from '../github/PlatformRepoReader';
import { AutoPromoter } from '../promotions/AutoPromoter';
import { Gate } from '../promotions/Gate';
import { PromotionsBroadcaster } from '../promotions/PromotionsBroadcaster';
import { PromotionsWebhooks } from './PromotionsWebhooks';

/**
 * Subscribes the plugin to GitHub webhooks when `promotions.webhooks.enabled`. Without
 * the events backend and its GitHub module nothing is ever published, and the Gate's
 * poll does the work alone.
 */
export async function subscribeToGithubWebhooks(options: {
  events: EventsService;
  config: PromotionsConfig;
  reader: PlatformRepoReader;
  store: PromotionStore;
  gate: Gate;
  broadcaster: PromotionsBroadcaster;
  autoPromoter: AutoPromoter;
  logger: LoggerService;
}): Promise<void> {
  const { config, reader, store, gate, broadcaster, autoPromoter, logger } = options;
  if (!config.webhooks.enabled) return;
  const webhooks = new PromotionsWebhooks({
    repo: {
      ...config.platformRepo,
      prefixes: [config.releasesPath, config.environmentsPath],
    },
    listLive: () => store.listLive(),
    check: id => gate.check(id),
    forgetHead: () => reader.forgetHead(),
    productChanged: product => broadcaster.productChanged(product, 'platform-repo-pushed'),
    autoPromote: config.autoPromote.enabled
      ? products => autoPromoter.run({ only: products })
      : undefined,
    logger,
  });
  await webhooks.subscribe(options.events);
  logger.info(
    `Listening for GitHub webhooks on ${config.platformRepo.owner}/${config.platformRepo.repo}; the Gate polls as a fallback`,
  );
}
