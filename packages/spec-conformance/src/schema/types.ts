/**
 * A node of an OpenAPI 3.0 / Swagger 2.0 / CRD openAPIV3Schema document.
 * The descriptions are data read from JSON and YAML, so they stay loosely typed.
 */
export type SchemaNode = Record<string, any>;
