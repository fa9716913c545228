import { AuthService, BackstageCredentials } from '@backstage/backend-plugin-api';
import { ActionsRegistryService } from '@backstage/backend-plugin-api/alpha';
import { InputError, NotAllowedError } from '@backstage/errors';
import { Caller, PromotionsOperations, ReaderCredentials, UserCredentials } from '../service/PromotionsOperations';
import { nameFromParams, productFromParams, promotionIdFrom } from '../service/params';
import { checkedBody } from '../service/requestBodies';
import { formatProductRef, Promotion } from '@refplat/plugin-promotions-common';
import { compactLadder, explainStage } from './ladderViews';

/**
 * The promotion capabilities as actions (served as MCP tools by
 * `@backstage/plugin-mcp-actions-backend`). Each runs with the caller's
 * credentials through the same operations, and so the same permission
 * checks, ownership and approval rules, as the HTTP routes; the body it
 * builds is checked against the route's schema in openapi.yaml first.
 */
export function registerPromotionsActions(options: {
  actionsRegistry: ActionsRegistryService;
  operations: PromotionsOperations;
  auth: AuthService;
}) {
  const { actionsRegistry, operations, auth } = options;

  const reader = (credentials: BackstageCredentials): ReaderCredentials => {
    if (auth.isPrincipal(credentials, 'user') || auth.isPrincipal(credentials, 'service')) return credentials;
    throw new NotAllowedError('Reading promotions needs a user or service identity');
  };
  const user = (credentials: BackstageCredentials): UserCredentials => {
    if (auth.isPrincipal(credentials, 'user')) return credentials;
    throw new NotAllowedError('Changing promotions needs a signed-in user: act on behalf of one');
  };
  /** Who the auditor records: without a request it would name this plugin. */
  const actorOf = (credentials: BackstageCredentials): string => {
    if (auth.isPrincipal(credentials, 'user')) return credentials.principal.userEntityRef;
    if (auth.isPrincipal(credentials, 'service')) return `service:${credentials.principal.subject}`;
    return 'none';
  };
  const caller = (credentials: BackstageCredentials, extraMeta: Record<string, string> = {}): Caller => ({
    credentials: async () => user(credentials),
    auditMeta: { via: 'action', actor: actorOf(credentials), ...extraMeta },
  });
  /** `team/product` as the route's params, each name checked as the route's are. */
  const productParams = (product: string) => {
    const parts = product.trim().split('/');
    if (parts.length !== 2) throw new InputError(`product must be <team>/<product>, e.g. alpha/shop, not '${product.slice(0, 100)}'`);
    return productFromParams({ team: parts[0], product: parts[1] });
  };

  const PRODUCT_DESCRIPTION = 'The Product as <team>/<product>, e.g. alpha/shop (a System annotated refplat.org/product)';

  actionsRegistry.register({
    name: 'get-ladder',
    title: 'Get promotion ladder',
    description:
      "Shows where a Product's Services stand on each stage of the promotion ladder (dev → test → uat → staging → prod): " +
      'the image digest each stage releases, whether ArgoCD really runs it healthy (verdict), canary progress, holds, ' +
      'what is waiting to climb, and the open promotions with their pull requests. Use it first to answer ' +
      '"what runs where?" or to find a stage to explain or promote into.',
    attributes: { readOnly: true, idempotent: true, destructive: false },
    schema: {
      input: z => z.object({ product: z.string().describe(PRODUCT_DESCRIPTION) }),
      output: z =>
        z.object({
          product: z.string(),
          revision: z.string().describe('The platform repo commit the ladder was read from'),
          healthError: z.string().optional().describe('Set when ArgoCD or the cluster could not be read at all'),
          stages: z.array(
            z.object({
              stage: z.string(),
              requiresApproval: z.boolean(),
              verdict: z.enum(['healthy', 'progressing', 'unhealthy', 'unknown']),
              stuck: z.boolean(),
              services: z.array(
                z.object({
                  service: z.string(),
                  digest: z.string().nullable(),
                  verdict: z.enum(['healthy', 'progressing', 'unhealthy', 'unknown']),
                  reasons: z.array(z.string()).optional(),
                  canary: z.string().optional(),
                  waitingToClimb: z
                    .boolean()
                    .optional()
                    .describe('The stage below releases a different digest, not older than this one'),
                  belowAge: z
                    .enum(['newer', 'older', 'unknown'])
                    .optional()
                    .describe(
                      "When the stage below releases a different digest: newer or older than this one, by first arrival at the bottom stage. An older one is never auto-promoted (a downgrade)",
                    ),
                  belowAgeReason: z.string().optional().describe('Why the digest below is older'),
                  hold: z.string().optional(),
                  diagnosis: z.string().optional().describe('Likely cause, when not ok; call explain for more'),
                }),
              ),
            }),
          ),
          openPromotions: z.array(
            z.object({
              id: z.string(),
              toStage: z.string(),
              status: z.string(),
              services: z.record(z.string()),
              pullRequestUrl: z.string(),
            }),
          ),
        }),
    },
    action: async ({ input, credentials }) => ({
      output: compactLadder(await operations.ladder(reader(credentials), productParams(input.product))),
    }),
  });

  actionsRegistry.register({
    name: 'explain',
    title: 'Explain a stage',
    description:
      'Diagnoses why a stage of a Product is stuck, slow or not promotable, the way the ladder shows it: ' +
      'per Service the last deployment step that completed, the likely cause, where to look (PR, ArgoCD app, Rollout), ' +
      'for a Service not healthy each hop in the cluster (admission, scheduling, image pull, probes, analysis, route) with its evidence, ' +
      'and the checklist of gates for promoting into the stage. Use it for "why is shop stuck in staging?" or ' +
      '"why can\'t I promote?". The `text` field is a ready-to-quote summary.',
    attributes: { readOnly: true, idempotent: true, destructive: false },
    schema: {
      input: z =>
        z.object({
          product: z.string().describe(PRODUCT_DESCRIPTION),
          stage: z.string().describe('The stage to explain, e.g. staging'),
          service: z.string().optional().describe('One Service of the stage; all of them when left out'),
        }),
      output: z =>
        z.object({
          product: z.string(),
          stage: z.string(),
          verdict: z.string(),
          stuck: z.boolean(),
          healthError: z.string().optional(),
          services: z.array(
            z.object({
              service: z.string(),
              digest: z.string().nullable(),
              verdict: z.string(),
              diagnosis: z
                .object({
                  state: z.enum(['ok', 'in-progress', 'stuck', 'unknown']),
                  code: z.string(),
                  lastCompletedStep: z.string(),
                  likelyCause: z.string(),
                  whereToLook: z.array(z.object({ label: z.string(), url: z.string().optional() })),
                  hops: z
                    .array(
                      z.object({
                        hop: z.string(),
                        mark: z.enum(['completed', 'waiting', 'stalled', 'not-reached', 'unknown']),
                        evidence: z.string().optional(),
                        seenAt: z.string().optional(),
                        lookAt: z
                          .object({
                            kind: z.enum(['kubectl', 'policy', 'argocd-resource', 'registry']),
                            text: z.string(),
                            href: z.string().optional(),
                          })
                          .optional(),
                      }),
                    )
                    .optional()
                    .describe('Each hop in the cluster with its mark, where the evidence was read (not for a healthy Service)'),
                })
                .nullable(),
              checklist: z.array(z.object({ gate: z.string(), ok: z.boolean(), detail: z.string() })),
              text: z.string(),
            }),
          ),
          text: z.string().describe('The diagnosis of every Service asked about, in plain words'),
        }),
    },
    action: async ({ input, credentials }) => {
      const ladder = await operations.ladder(reader(credentials), productParams(input.product));
      return { output: explainStage(ladder, input.stage, input.service) };
    },
  });

  actionsRegistry.register({
    name: 'what-changed',
    title: 'What changed between stages',
    description:
      'Lists what promoting a Product from one stage to the next higher one would ship: per Service the two digests ' +
      'and the source commits between them (newest first) with a GitHub compare link. Use it for ' +
      '"what is in staging that prod does not have yet?". `from` must be below `to` on the ladder.',
    attributes: { readOnly: true, idempotent: true, destructive: false },
    schema: {
      input: z =>
        z.object({
          product: z.string().describe(PRODUCT_DESCRIPTION),
          from: z.string().describe('The lower stage, e.g. staging'),
          to: z.string().describe('The higher stage, e.g. prod'),
        }),
      output: z =>
        z.object({
          fromStage: z.string(),
          toStage: z.string(),
          items: z.array(
            z.object({
              service: z.string(),
              from: z.string().optional(),
              to: z.string().optional(),
              changed: z.boolean(),
              commits: z
                .array(z.object({ sha: z.string(), message: z.string(), author: z.string().optional(), url: z.string().optional() }).passthrough())
                .optional(),
              omittedCommits: z.number().optional(),
              compareUrl: z.string().optional(),
              note: z.string().optional(),
            }),
          ),
        }),
    },
    action: async ({ input, credentials }) => ({
      output: await operations.changes(reader(credentials), productParams(input.product), input.from, input.to),
    }),
  });

  actionsRegistry.register({
    name: 'list-awaiting-approval',
    title: 'List promotions awaiting my approval',
    description:
      'Lists the promotions, across all Products, that wait for an approval the calling user may give (oldest first). ' +
      'Empty for someone who is not an approver, and never lists their own requests when approvers must differ.',
    attributes: { readOnly: true, idempotent: true, destructive: false },
    schema: {
      input: z => z.object({}),
      output: z =>
        z.object({
          items: z.array(
            z.object({
              id: z.string(),
              product: z.string(),
              fromStage: z.string(),
              toStage: z.string(),
              services: z.record(z.string()),
              requestedBy: z.string(),
              createdAt: z.string(),
              pullRequestUrl: z.string(),
              awaiting: z
                .array(z.enum(['approvers', 'incident-commander']))
                .describe('What it still needs: the quorum of approvers, an incident commander, or both'),
              source: z
                .array(
                  z.object({
                    service: z.string(),
                    stillInSource: z.boolean().describe('false once the stage below moved on from the digest promoted'),
                    verdict: z.string().describe('healthy, progressing, unhealthy or unknown, for what the stage runs now'),
                    soakRemainingSeconds: z.number().optional().describe('0: soaked'),
                  }),
                )
                .optional()
                .describe('The stage below, per Service; absent for a rollback or when it could not be read'),
            }),
          ),
        }),
    },
    action: async ({ credentials }) => {
      const items = await operations.approvals(user(credentials));
      return {
        output: {
          items: items.map(promotion => ({
            id: promotion.id,
            product: formatProductRef(promotion),
            fromStage: promotion.fromStage,
            toStage: promotion.toStage,
            services: promotion.services,
            requestedBy: promotion.requestedBy,
            createdAt: promotion.createdAt,
            pullRequestUrl: promotion.pullRequest.url,
            awaiting: promotion.awaiting,
            ...(promotion.source
              ? {
                  source: promotion.source.services.map(cell => ({
                    service: cell.service,
                    stillInSource: cell.stillInSource,
                    verdict: cell.verdict,
                    ...(cell.soakRemainingSeconds !== undefined ? { soakRemainingSeconds: cell.soakRemainingSeconds } : {}),
                  })),
                }
              : {}),
          })),
        },
      };
    },
  });

  const promotionOutput = (z: Parameters<Parameters<typeof actionsRegistry.register>[0]['schema']['output']>[0]) =>
    z.object({
      id: z.string(),
      product: z.string(),
      fromStage: z.string(),
      toStage: z.string(),
      services: z.record(z.string()).describe('Service → the digest this promotion writes into toStage'),
      status: z.string().describe('opening, open, awaiting-approval, approved, merged, closed or failed'),
      statusReason: z.string().optional(),
      requestedBy: z.string(),
      approvedBy: z.string().optional(),
      pullRequestUrl: z.string(),
    });
  const promotionView = (promotion: Promotion) => ({
    id: promotion.id,
    product: formatProductRef(promotion),
    fromStage: promotion.fromStage,
    toStage: promotion.toStage,
    services: promotion.services,
    status: promotion.status,
    ...(promotion.statusReason ? { statusReason: promotion.statusReason } : {}),
    requestedBy: promotion.requestedBy,
    ...(promotion.approvedBy ? { approvedBy: promotion.approvedBy } : {}),
    pullRequestUrl: promotion.pullRequest.url,
  });

  actionsRegistry.register({
    name: 'request-promotion',
    title: 'Request a promotion',
    description:
      "Requests promoting a Product's Services from the stage below into `toStage`: opens a Release pull request that " +
      'the Gate merges once the stage below runs the digests healthy (approval stages such as prod also need a ' +
      "release-approver). Idempotent: asking again returns the open promotion. Refused (409) when the ladder's " +
      'rules forbid it (nothing to promote, a hold, the stage below not healthy); not allowed (403) for someone who ' +
      'does not own the Product. Once merged it replaces what runs in the stage.',
    // Merging replaces the running digests of a stage: destructive, though gated and reversible by a rollback.
    attributes: { readOnly: false, idempotent: true, destructive: true },
    schema: {
      input: z =>
        z.object({
          product: z.string().describe(PRODUCT_DESCRIPTION),
          toStage: z.string().describe('The stage to promote into, e.g. test; promotes from the stage below'),
          services: z.array(z.string()).optional().describe('Only these Services; every differing one when left out'),
        }),
      output: z =>
        z.object({
          existing: z.boolean().describe('True when the same promotion was already open'),
          promotion: promotionOutput(z),
        }),
    },
    action: async ({ input, credentials }) => {
      const { toStage, services } = input;
      const body = checkedBody('PromotionRequest', { toStage, ...(services ? { services } : {}) });
      const outcome = await operations.requestPromotion(caller(credentials), productParams(input.product), body);
      return { output: { existing: outcome.existing, promotion: promotionView(outcome.promotion) } };
    },
  });

  actionsRegistry.register({
    name: 'approve-promotion',
    title: 'Approve a promotion',
    description:
      'Approves a promotion awaiting approval (into prod or another approval stage) as the calling user, who must ' +
      'be a release-approver and not its requester; the Gate then merges it when its checks pass. Approving an ' +
      'approved promotion changes nothing. Refused (409) when it no longer awaits approval. Get ids from ' +
      'list-awaiting-approval.',
    attributes: { readOnly: false, idempotent: true, destructive: true },
    schema: {
      input: z => z.object({ id: z.string().describe('The promotion id (a UUID)') }),
      output: z => z.object({ promotion: promotionOutput(z) }),
    },
    action: async ({ input, credentials }) => ({
      output: { promotion: promotionView(await operations.approve(caller(credentials), promotionIdFrom(input.id))) },
    }),
  });

  actionsRegistry.register({
    name: 'withdraw-promotion',
    title: 'Withdraw a promotion',
    description:
      'Withdraws a live promotion as the calling user, who must be its requester or one of the Product\'s ' +
      'approvers: it is closed with the reason, and its pull request closed with a comment naming the user. ' +
      'Refused (409) once it merged or ended. Get ids from get-ladder (its open promotions) or list-awaiting-approval.',
    attributes: { readOnly: false, idempotent: false, destructive: true },
    schema: {
      input: z =>
        z.object({
          id: z.string().describe('The promotion id (a UUID)'),
          reason: z.string().describe('Why, for the pull request and the trail'),
        }),
      output: z => z.object({ promotion: promotionOutput(z) }),
    },
    action: async ({ input, credentials }) => ({
      output: {
        promotion: promotionView(
          await operations.withdraw(
            caller(credentials),
            promotionIdFrom(input.id),
            checkedBody('ReasonRequest', { reason: input.reason }),
          ),
        ),
      },
    }),
  });

  const holdOutput = (z: Parameters<Parameters<typeof actionsRegistry.register>[0]['schema']['output']>[0]) =>
    z.object({
      hold: z.object({ stage: z.string(), service: z.string(), reason: z.string(), placedBy: z.string(), placedAt: z.string() }),
    });
  const cellInput = (z: Parameters<Parameters<typeof actionsRegistry.register>[0]['schema']['input']>[0], reason: string) =>
    z.object({
      product: z.string().describe(PRODUCT_DESCRIPTION),
      stage: z.string(),
      service: z.string(),
      reason: z.string().describe(reason),
    });

  actionsRegistry.register({
    name: 'hold',
    title: 'Hold a Service in a stage',
    description:
      'Places a hold on one Service in one stage: the auto-promoter and promotions stay out of it until it is ' +
      'resumed, e.g. after a rollback or during an incident. The reason is shown on the ladder. Placing a hold ' +
      'where one is live keeps the first.',
    attributes: { readOnly: false, idempotent: true, destructive: false },
    schema: {
      input: z => cellInput(z, 'Why, for the people reading the ladder'),
      output: holdOutput,
    },
    action: async ({ input, credentials }) => {
      const { stage, service, reason } = input;
      const body = checkedBody('HoldRequest', { stage, service, reason });
      const hold = await operations.placeHold(caller(credentials), productParams(input.product), body);
      return { output: { hold } };
    },
  });

  actionsRegistry.register({
    name: 'resume',
    title: 'Resume a held Service',
    description:
      'Lifts the live hold on one Service in one stage, so the auto-promoter and promotions may move it again. ' +
      'Not found (404) when there is no live hold. The reason goes to the audit trail.',
    attributes: { readOnly: false, idempotent: false, destructive: false },
    schema: {
      input: z => cellInput(z, 'Why the hold may go, for the audit trail'),
      output: holdOutput,
    },
    action: async ({ input, credentials }) => {
      const params = { ...productParams(input.product), stage: nameFromParams(input, 'stage'), service: nameFromParams(input, 'service') };
      return { output: { hold: await operations.liftHold(caller(credentials, { reason: input.reason }), params) } };
    },
  });
}
