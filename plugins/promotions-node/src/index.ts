/**
 * Node.js library for the promotions backend plugin: backend modules add
 * promotion guards through `promotionsGuardsExtensionPoint`, and may replace
 * the health source (`promotionsHealthSourceExtensionPoint`) and the catalog
 * as directory (`promotionsDirectoryExtensionPoint`); the ports the
 * plugin's domain depends on (the platform repo, the stores, the health
 * source, the directory, the clock) are declared here, and in-memory fakes
 * of each ship in `@refplat/plugin-promotions-node/testUtils`.
 *
 * @packageDocumentation
 */
export * from './guards';
export * from './healthSourceExtensionPoint';
export * from './directoryExtensionPoint';
export * from './ports';
