/**
 * In-memory fakes of the promotions plugin's ports, for unit tests of the
 * plugin's domain and of adopters' guard modules: no GitHub, database,
 * ArgoCD or catalog, and a clock the test moves.
 *
 * @packageDocumentation
 */
export * from './ManualClock';
export * from './InMemoryPlatformRepo';
export * from './InMemoryPromotionStore';
export * from './InMemoryHoldStore';
export * from './InMemoryAutoDecisionStore';
export * from './InMemoryHealthySinceStore';
export * from './InMemoryNotificationClaimStore';
export * from './InMemoryIncidentStore';
export * from './FakeHealthSource';
export * from './FakeDirectory';
export * from './InMemoryProvenanceStore';
export * from './promotionStoreContract';
