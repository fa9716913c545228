/**
 * Node.js library for the promotions backend plugin: backend modules add
 * promotion guards through `promotionsGuardsExtensionPoint`.
 *
 * @packageDocumentation
 */
export * from './guards';
