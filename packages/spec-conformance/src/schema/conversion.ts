import { SchemaNode } from './types';

/** Keys whose values map names to schemas (each value is converted, not the map). */
const SCHEMA_MAPS = new Set(['properties', 'definitions', 'schemas', 'patternProperties']);

/**
 * OpenAPI 3.0 / Swagger 2.0 schema → JSON Schema that Ajv understands:
 * `nullable: true` becomes a null alternative; documentation keywords
 * (`example`, `x-*`) are dropped; everything else is kept.
 */
export function oasToJsonSchema(node: any): any {
  if (Array.isArray(node)) return node.map(oasToJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const out: SchemaNode = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'example' || key === 'examples' || key.startsWith('x-')) continue;
    out[key] = SCHEMA_MAPS.has(key)
      ? Object.fromEntries(Object.entries(value as SchemaNode).map(([k, v]) => [k, oasToJsonSchema(v)]))
      : oasToJsonSchema(value);
  }
  if (out.nullable === true) {
    delete out.nullable;
    if (out.enum && !out.enum.includes(null)) out.enum = [...out.enum, null];
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (!out.type) return { anyOf: [out, { type: 'null' }] };
  } else if (out.nullable === false) {
    delete out.nullable;
  }
  return out;
}

/**
 * A CRD's structural openAPIV3Schema → JSON Schema, as an API server reads it:
 * `x-kubernetes-int-or-string` accepts both; `nullable` admits null.
 */
export function crdToJsonSchema(node: any): any {
  if (Array.isArray(node)) return node.map(crdToJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const out: SchemaNode = {};
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('x-kubernetes-')) continue;
    out[key] =
      key === 'properties'
        ? Object.fromEntries(Object.entries(value as SchemaNode).map(([k, v]) => [k, crdToJsonSchema(v)]))
        : crdToJsonSchema(value);
  }
  if (node['x-kubernetes-int-or-string']) {
    delete out.type;
    return { ...out, anyOf: [{ type: 'integer' }, { type: 'string' }] };
  }
  if (node.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  delete out.nullable;
  return out;
}

/** Follows `$ref: '#/…'` pointers within `doc` until a concrete node. */
export function deref(doc: SchemaNode, node: any): any {
  let current = node;
  while (current && current.$ref) {
    current = String(current.$ref)
      .replace(/^#\//, '')
      .split('/')
      .reduce((at: any, key: string) => at?.[key], doc);
  }
  return current;
}
