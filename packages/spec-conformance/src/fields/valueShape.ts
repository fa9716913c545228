import Ajv from 'ajv';
import { SchemaNode } from '../schema/types';
import { newAjv } from '../schema/validators';
import { alternatives, fieldSteps, FieldStep, itemSchemas, propertySchemas } from './schemaWalk';

export interface ShapeProblem {
  /** Where in the body, e.g. `items[2].status.sync.revision`. */
  at: string;
  problem: string;
}

const CHECKED_FORMATS = new Set(['date-time', 'date', 'uri', 'email']);

function valueType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return Number.isInteger(value) ? 'integer' : typeof value;
}

/** The `type` of a schema node as a list (absent: none). */
const typesOf = (node: SchemaNode): string[] => (Array.isArray(node.type) ? node.type : [node.type].filter(Boolean));

/**
 * Checks the values a response carries for the fields the product reads
 * against one description: present when the description requires them, and
 * the described type, null-ness, enum value and format.
 *
 * `nullMeansAbsent`: Kubernetes and Argo CD drop empty fields rather than
 * send null, so a null counts as "not sent" there; GitHub declares
 * nullability explicitly.
 */
export class ValueShapeChecker {
  private readonly ajv: Ajv = newAjv();
  private readonly formatValidators = new Map<string, (value: unknown) => boolean>();

  constructor(
    private readonly doc: SchemaNode,
    private readonly nullMeansAbsent: boolean,
  ) {}

  check(rootSchema: SchemaNode, rootValue: unknown, field: string): ShapeProblem[] {
    const out: ShapeProblem[] = [];
    this.walk([rootSchema], rootValue, fieldSteps(field), '', out);
    return out;
  }

  private walk(candidates: SchemaNode[], value: unknown, steps: FieldStep[], at: string, out: ShapeProblem[]): void {
    if (!steps.length) return;
    const [step, ...rest] = steps;
    if (step.name === null) {
      if (!Array.isArray(value)) return;
      const items = itemSchemas(this.doc, candidates);
      value.forEach((element, i) => this.visit(items, element, rest, `${at}[${i}]`, out));
      return;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
    const object = value as Record<string, unknown>;
    const { schemas, required } = propertySchemas(this.doc, candidates, step.name);
    const here = at ? `${at}.${step.name}` : step.name;
    if (!(step.name in object) || (this.nullMeansAbsent && object[step.name] === null)) {
      if (required && schemas.length) out.push({ at: here, problem: 'is missing; the real API always sends it' });
      return;
    }
    // A field the description lacks is reported once, by the static check.
    if (!schemas.length) return;
    const child = object[step.name];
    if (!step.array) {
      this.visit(schemas, child, rest, here, out);
      return;
    }
    for (const problem of this.shallow(child, schemas)) out.push({ at: here, problem });
    if (Array.isArray(child)) {
      const items = itemSchemas(this.doc, schemas);
      child.forEach((element, i) => this.visit(items, element, rest, `${here}[${i}]`, out));
    }
  }

  private visit(schemas: SchemaNode[], value: unknown, rest: FieldStep[], at: string, out: ShapeProblem[]): void {
    if (value === null && this.nullMeansAbsent) return;
    for (const problem of this.shallow(value, schemas)) out.push({ at, problem });
    if (value !== null && value !== undefined) this.walk(schemas, value, rest, at, out);
  }

  /** Type, null, enum and format of one value against the alternatives for it. */
  private shallow(value: unknown, candidates: SchemaNode[]): string[] {
    const nodes = candidates.flatMap(c => alternatives(this.doc, c));
    if (!nodes.length) return [];
    const types = new Set<string>();
    let untyped = false;
    let nullable = false;
    for (const node of nodes) {
      if (node.nullable || node['x-nullable']) nullable = true;
      if (node['x-kubernetes-int-or-string']) {
        types.add('integer');
        types.add('string');
      } else if (typesOf(node).length) typesOf(node).forEach(t => types.add(t));
      else if (node.properties || node.additionalProperties) types.add('object');
      else if (node.items) types.add('array');
      else if (!node.allOf && !node.anyOf && !node.oneOf) untyped = true;
    }
    const type = valueType(value);
    if (type === 'null') return nullable || types.has('null') || untyped ? [] : ['is null; the real API never sends null here'];
    if (!untyped && types.size && !types.has(type) && !(type === 'integer' && types.has('number'))) {
      return [`is ${type} (${JSON.stringify(value).slice(0, 60)}); the real API sends ${[...types].join('|')}`];
    }
    // An enum binds only when every alternative that accepts this type has one.
    const accepting = nodes.filter(node => {
      const nodeTypes = typesOf(node);
      if (!nodeTypes.length) return !node.allOf && !node.anyOf && !node.oneOf && !node.properties && !node.items;
      return nodeTypes.includes(type) || (type === 'integer' && nodeTypes.includes('number'));
    });
    if (accepting.length && accepting.every(node => Array.isArray(node.enum))) {
      const allowed = new Set(accepting.flatMap(node => node.enum));
      if (!allowed.has(value)) return [`is ${JSON.stringify(value)}; the real API sends one of ${JSON.stringify([...allowed])}`];
    }
    if (typeof value === 'string') {
      const formats: string[] = nodes.map(node => node.format).filter((f: string) => CHECKED_FORMATS.has(f));
      if (formats.length && !formats.some(format => this.formatOk(format, value))) {
        return [`is "${value.slice(0, 60)}", not a ${formats[0]}`];
      }
    }
    return [];
  }

  private formatOk(format: string, value: string): boolean {
    let validate = this.formatValidators.get(format);
    if (!validate) {
      validate = this.ajv.compile({ type: 'string', format });
      this.formatValidators.set(format, validate);
    }
    return validate(value);
  }
}
