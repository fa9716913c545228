import { deref } from '../schema/conversion';
import { SchemaNode } from '../schema/types';

/** One step of a field path: a property name, or (name null) each element of an array. */
export interface FieldStep {
  name: string | null;
  /** `name[]`: the property is an array; continue into each element. */
  array: boolean;
}

/** `commits[].author.login` → steps; a leading `[].` steps into a top-level array. */
export function fieldSteps(field: string): FieldStep[] {
  const head: FieldStep[] = field.startsWith('[].') ? [{ name: null, array: true }] : [];
  const rest = field
    .replace(/^\[\]\./, '')
    .split('.')
    .map(part => ({ name: part.replace(/\[\]$/, ''), array: part.endsWith('[]') }));
  return [...head, ...rest];
}

/** A schema and its allOf / anyOf / oneOf alternatives, dereferenced. */
export function alternatives(doc: SchemaNode, node: unknown): SchemaNode[] {
  const resolved = deref(doc, node);
  if (!resolved) return [];
  const nested = [...(resolved.allOf ?? []), ...(resolved.anyOf ?? []), ...(resolved.oneOf ?? [])];
  return [resolved, ...nested.flatMap((n: unknown) => alternatives(doc, n))];
}

/** The schemas a property may have across `candidates`, and whether any candidate requires it. */
export function propertySchemas(doc: SchemaNode, candidates: SchemaNode[], name: string) {
  const schemas: SchemaNode[] = [];
  let required = false;
  for (const node of candidates.flatMap(c => alternatives(doc, c))) {
    if (node.required?.includes(name)) required = true;
    const additional = node.additionalProperties && typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined;
    const property = node.properties?.[name] ?? additional;
    if (property) schemas.push(deref(doc, property));
  }
  return { schemas, required };
}

export function itemSchemas(doc: SchemaNode, candidates: SchemaNode[]): SchemaNode[] {
  return candidates
    .flatMap(c => alternatives(doc, c))
    .filter(node => node.items)
    .map(node => deref(doc, node.items));
}

export interface FieldLookup {
  found: boolean;
  nullable?: boolean;
  type?: string;
}

/** Does the field exist in `schema`? With its type(s) and whether the description allows null. */
export function lookupField(doc: SchemaNode, schema: SchemaNode, field: string): FieldLookup {
  let nodes: SchemaNode[] = [deref(doc, schema)];
  let nullable = false;
  for (const step of fieldSteps(field)) {
    let next: SchemaNode[];
    if (step.name === null) {
      next = itemSchemas(doc, nodes);
    } else {
      next = propertySchemas(doc, nodes, step.name).schemas;
      if (next.some(n => n?.nullable || n?.['x-nullable'])) nullable = true;
      if (step.array) next = itemSchemas(doc, next);
    }
    if (!next.length) return { found: false };
    nodes = next;
  }
  const types = new Set(nodes.map(n => n.type ?? (n.anyOf || n.oneOf || n.allOf ? 'composite' : 'any')));
  return { found: true, nullable, type: [...types].join('|') };
}
