import { setTimeout } from 'node:timers/promises';
import { AuthService, DiscoveryService } from '@backstage/backend-plugin-api';
import { InputError } from '@backstage/errors';
import { createTemplateAction } from '@backstage/plugin-scaffolder-node';
import {
  parseProductRef,
  parseWaitTimeout,
  PROMOTION_WAIT_TARGETS,
  PromotionWaitTarget,
  waitForPromotion,
} from '@refplat/plugin-promotions-common';
import { PromotionsClient } from './PromotionsClient';

const DEFAULT_TIMEOUT = '15m';

/**
 * How the action polls while it waits.
 *
 * @public
 */
export interface PromotionsRequestActionOptions {
  /** How often a waiting action reads the promotion again; default 2 s. */
  pollIntervalMs?: number;
}

/**
 * `promotions:request`: requests a promotion as the user who runs the
 * template (so their permissions apply, as in the UI) and optionally waits
 * until its Release PR is merged or the stage runs it healthy.
 *
 * It supports dry runs and then requests for real: requesting is idempotent
 * (asking again answers the open promotion) and every rule of the ladder
 * still applies, so the template editor shows what the template would do.
 *
 * @public
 */
export function createPromotionsRequestAction(
  deps: { auth: AuthService; discovery: DiscoveryService },
  options: PromotionsRequestActionOptions = {},
) {
  const client = new PromotionsClient(deps.discovery);
  const pollIntervalMs = options.pollIntervalMs ?? 2000;

  return createTemplateAction({
    id: 'promotions:request',
    description:
      "Requests promoting a Product's Services from the stage below into a stage, as the user running the template, " +
      'and can wait until the Release PR is merged or the stage runs the promoted digests healthy.',
    supportsDryRun: true,
    examples: [
      {
        description: 'Promote the storefront of alpha/shop into test and wait until the PR is merged',
        example: [
          'steps:',
          '  - id: promote',
          '    action: promotions:request',
          '    input:',
          '      product: alpha/shop',
          '      toStage: test',
          '      services: [storefront]',
          '      wait: merged',
          '      timeout: 15m',
        ].join('\n'),
      },
    ],
    schema: {
      input: {
        product: z => z.string().describe('The Product as <team>/<product>, e.g. alpha/shop'),
        toStage: z => z.string().min(1).describe('The stage to promote into; promotes from the stage below'),
        services: z => z.array(z.string()).optional().describe('Only these Services; every differing one when left out or empty'),
        wait: z =>
          z
            .enum(PROMOTION_WAIT_TARGETS as [PromotionWaitTarget, ...PromotionWaitTarget[]])
            .optional()
            .describe('Wait until the Release PR is merged, or until the stage runs every promoted digest healthy'),
        timeout: z => z.string().optional().describe(`How long to wait, e.g. 90s, 15m or PT15M; default ${DEFAULT_TIMEOUT}`),
      },
      output: {
        promotionId: z => z.string().describe('The promotion id'),
        prUrl: z => z.string().describe("The promotion's Release pull request"),
        status: z => z.string().describe('Its status when the action ended: merged after a wait'),
      },
    },
    async handler(ctx) {
      const { toStage, services, wait } = ctx.input;
      // The scaffolder checks inputs against the JSON schema, which cannot say these; check before requesting.
      const product = parseProductRef(ctx.input.product);
      if (!product) throw new InputError(`product must be <team>/<product>, e.g. alpha/shop, not '${ctx.input.product}'`);
      const timeoutMs = parseWaitTimeout(ctx.input.timeout ?? DEFAULT_TIMEOUT);
      if (timeoutMs === undefined) {
        throw new InputError(`timeout must be a number and a unit (90s, 15m, 1h) or an ISO duration (PT15M), not '${ctx.input.timeout}'`);
      }
      // A fresh token for each call: a long wait outlives a short-lived one.
      const token = async () => {
        const { token: userToken } = await deps.auth.getPluginRequestToken({
          onBehalfOf: await ctx.getInitiatorCredentials(),
          targetPluginId: 'promotions',
        });
        return userToken;
      };

      if (ctx.isDryRun) {
        ctx.logger.info('Dry run: the promotion is requested for real (requesting is idempotent)');
      }
      const requested = await client.request(await token(), product, { toStage, ...(services?.length ? { services } : {}) });
      let promotion = requested.promotion;
      ctx.logger.info(
        `${requested.existing ? 'Already open' : 'Requested'}: promotion ${promotion.id} into ${toStage}, ${promotion.status}, ${promotion.pullRequest.url}`,
      );

      if (wait) {
        ctx.logger.info(`Waiting up to ${ctx.input.timeout ?? DEFAULT_TIMEOUT} until it is ${wait}`);
        const waited = await waitForPromotion({
          requested: promotion,
          until: wait,
          timeoutMs,
          pollIntervalMs,
          readPromotion: async current => client.promotion(await token(), current.id),
          readStageCells: async current =>
            (await client.ladder(await token(), product)).stages.find(stage => stage.name === current.toStage)?.services ?? {},
          sleep: ms => setTimeout(ms, undefined, { signal: ctx.signal }),
          now: Date.now,
        });
        promotion = waited.promotion;
        if (waited.outcome === 'ended') {
          throw new Error(`Promotion ${promotion.id} ${promotion.status}: ${promotion.statusReason ?? 'no reason given'}`);
        }
        if (waited.outcome === 'timed-out') {
          throw new Error(`Timed out waiting for promotion ${promotion.id} to be ${wait}: it is ${promotion.status}`);
        }
        ctx.logger.info(`Promotion ${promotion.id} is ${wait}`);
      }

      ctx.output('promotionId', promotion.id);
      ctx.output('prUrl', promotion.pullRequest.url);
      ctx.output('status', promotion.status);
    },
  });
}
