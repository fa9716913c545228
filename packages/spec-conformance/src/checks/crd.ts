import { CrdFile, crdDescription } from '../references';
import { crdToJsonSchema } from '../schema/conversion';
import { SchemaNode } from '../schema/types';
import { formatErrors, newAjv } from '../schema/validators';

export interface CrdValidator {
  kind: string;
  schema: SchemaNode;
  /** Type, enum and required errors, plus every field an API server would prune. */
  problems(object: unknown, where: string): string[];
}

/**
 * Validates objects against a CustomResourceDefinition the way a Kubernetes
 * API server treats them: schema errors, and fields it would prune because
 * the structural schema does not declare them.
 */
export function createCrdValidator(file: CrdFile): CrdValidator {
  const { kind, schema } = crdDescription(file);
  let validate: ReturnType<ReturnType<typeof newAjv>['compile']> | undefined;
  return {
    kind,
    schema,
    problems(object, where) {
      validate ??= newAjv().compile(crdToJsonSchema(schema));
      const problems = validate(object) ? [] : formatErrors(validate.errors, 30).map(e => `${where}: ${kind} CRD schema: ${e}`);
      const pruned = prunedFields(object, schema);
      if (pruned.length) {
        const shown = pruned.slice(0, 15).join(', ');
        const more = pruned.length > 15 ? ` … ${pruned.length - 15} more` : '';
        problems.push(`${where}: ${kind} CRD does not declare (an API server would prune): ${shown}${more}`);
      }
      return problems;
    },
  };
}

/** Fields of `value` that `schema` neither declares nor preserves. */
export function prunedFields(value: unknown, schema: SchemaNode): string[] {
  const out: string[] = [];
  walk(value, schema, '', out, true);
  return out;
}

function walk(value: unknown, schema: SchemaNode | undefined, at: string, out: string[], root = false): void {
  if (!schema || value === null || typeof value !== 'object') return;
  if (schema['x-kubernetes-preserve-unknown-fields'] && !schema.properties) return;
  if (Array.isArray(value)) {
    if (schema.items) value.forEach((item, i) => walk(item, schema.items, `${at}[${i}]`, out));
    return;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (schema.properties) {
    for (const [key, child] of entries) {
      // The API server keeps ObjectMeta and the type fields at the root whatever the schema says.
      if (root && (key === 'metadata' || key === 'apiVersion' || key === 'kind')) continue;
      const childSchema = schema.properties[key];
      if (childSchema) walk(child, childSchema, `${at}.${key}`, out);
      else if (!schema['x-kubernetes-preserve-unknown-fields'] && !schema.additionalProperties) out.push(`${at}.${key}`);
    }
  } else if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    for (const [key, child] of entries) walk(child, schema.additionalProperties, `${at}.${key}`, out);
  }
}
