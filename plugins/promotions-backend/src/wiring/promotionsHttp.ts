import {
  AuthService,
  CacheService,
  HttpAuthService,
  PermissionsService,
  RootConfigService,
  UserInfoService,
  AuditorService,
} from '@backstage/backend-plugin-api';
import type { ActionsRegistryService } from '@backstage/backend-plugin-api/alpha';
import { registerPromotionsActions } from '../actions/registerPromotionsActions';
import { DeliveryMetricsService } from '../metrics/DeliveryMetricsService';
import { WhatChanged } from '../promotions/WhatChanged';
import { KnownProducts } from '../service/KnownProducts';
import { OverviewService } from '../service/OverviewService';
import { readRequireOwnership } from '../service/ProductAccess';
import { PromotionsOperations } from '../service/PromotionsOperations';
import { createRouter } from '../service/router';
import { PromotionsParts } from './promotionsRoot';

/**
 * The plugin's entrance: the checked operations, which the routes and the
 * registered actions (and MCP tools) share, and the router over them.
 */
export async function promotionsHttp(
  { config, people, repo, stores, guards, ladders, promotions }: PromotionsParts,
  deps: {
    rootConfig: RootConfigService;
    cache: CacheService;
    httpAuth: HttpAuthService;
    auth: AuthService;
    permissions: PermissionsService;
    userInfo: UserInfoService;
    auditor: AuditorService;
    actionsRegistry: ActionsRegistryService;
  },
) {
  const operations = new PromotionsOperations({
    config,
    permissions: deps.permissions,
    userInfo: deps.userInfo,
    auditor: deps.auditor,
    sharedLadders: ladders.sharedLadders,
    cacheTtlMs: repo.cacheTtlMs,
    promotionService: promotions.promotionService,
    approvalService: promotions.approvalService,
    approvalRights: people.approvalRights,
    approvalsInbox: promotions.approvalsInbox,
    closer: promotions.closer,
    holds: stores.holds,
    store: stores.promotions,
    autoDecisions: stores.autoDecisions,
    stageHistory: ladders.stageHistory,
    deliveryMetrics: new DeliveryMetricsService({ config, store: stores.timelines }),
    overview: new OverviewService({ model: ladders.overviewModel, stages: config.stages, userInfo: deps.userInfo }),
    broadcaster: people.broadcaster,
    whatChanged: new WhatChanged({
      config,
      reader: repo.files,
      octokit: repo.octokit,
      cache: deps.cache,
      attestedSource: guards.provenance?.attestedSource,
    }),
    knownProducts: new KnownProducts(repo.files, config),
    owners: people.directory,
    requireOwnership: readRequireOwnership(deps.rootConfig),
  });
  registerPromotionsActions({ actionsRegistry: deps.actionsRegistry, operations, auth: deps.auth });
  return createRouter({
    operations,
    httpAuth: deps.httpAuth,
    incidentService: promotions.incidentService,
    promotionQueue: promotions.promotionQueue,
  });
}
