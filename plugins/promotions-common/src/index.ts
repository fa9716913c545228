/**
 * Types, permissions and pure ladder rules shared by the promotions plugins.
 *
 * @packageDocumentation
 */
export * from './annotations';
export * from './names';
export * from './permissions';
export * from './access/productChange';
export * from './argo/types';
export * from './argo/application';
export * from './argo/applicationChange';
export * from './argo/rolloutHealth';
export * from './argo/canaryState';
export * from './argo/time';
export * from './argo/repoUrl';
export * from './argo/applicationSources';
export * from './argo/injectedImages';
export * from './argo/serviceImages';
export * from './argo/resourceTree';
export * from './health/serviceHealth';
export * from './health/releaseApplied';
export * from './ladder/types';
export * from './ladder/rules';
export * from './ladder/arrival';
export * from './promotions/types';
export * from './promotions/livePromotion';
export * from './people/actorNames';
export * from './promotions/releaseChanges';
export * from './promotions/planRollback';
export * from './promotions/planPromotion';
export * from './promotions/opening';
export * from './promotions/ownership';
export * from './promotions/waiting';
export * from './promotions/waitForPromotion';
export * from './autoPromote/types';
export * from './autoPromote/decide';
export * from './autoPromote/digestAge';
export * from './diagnosis/diagnose';
export * from './diagnosis/checklistItem';
export * from './diagnosis/checklist';
export * from './changes/types';
export * from './changes/newestCommitPages';
export * from './metrics/deliveryMetrics';
export * from './overview/types';
export * from './overview/rules';
export * from './overview/query';
export * from './guards/types';
export * from './guards/verdicts';
export * from './guards/freezes';
export * from './guards/incidents';
export * from './approval/quorum';
export * from './approval/approvalPolicy';
export * from './approval/promotionApproval';
export * from './approval/approvalSource';
export * from './approval/inbox';
export * from './schema/openapi';
