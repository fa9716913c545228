import { ExchangeResult, parseJson } from '../exchange';
import { SchemaNode } from '../schema/types';
import { CrdValidator } from '../checks/crd';
import { GithubChecker } from '../checks/github';
import {
  APPLICATION_READS,
  FieldRead,
  GITHUB_READS,
  parseFieldRead,
  RESOURCE_RESPONSE_READS,
  RESOURCE_TREE_READS,
  ROLLOUT_READS,
} from './fieldReads';
import { lookupField } from './schemaWalk';
import { ValueShapeChecker } from './valueShape';

/** One read field looked up in a real description. */
export interface FieldRow extends FieldRead {
  api: 'github' | 'argocd-swagger' | 'application-crd' | 'rollout-crd';
  /** The operation or object it is read from. */
  op: string;
  found: boolean;
  type?: string;
  nullable?: boolean;
}

/** A simulator value of a read field that the real API shapes differently. */
export interface FieldProblem extends FieldRead {
  at: string;
  problem: string;
}

// ObjectMeta is standard Kubernetes, not part of a CRD's schema.
const notObjectMeta = (read: FieldRead) => !read.field.startsWith('metadata.');

export interface FieldCheckerInputs {
  github?: GithubChecker;
  argocdSwagger?: SchemaNode;
  application?: CrdValidator;
  rollout?: CrdValidator;
}

/**
 * The product's field reads (fieldReads.ts) against the real descriptions:
 * `rows` says whether each exists there; `check` judges the values one
 * recorded product response carries for them.
 */
export function createFieldChecker({ github, argocdSwagger, application, rollout }: FieldCheckerInputs) {
  const applicationReads = APPLICATION_READS.map(parseFieldRead);
  const rolloutReads = ROLLOUT_READS.filter(f => !f.startsWith('metadata.')).map(parseFieldRead);
  const resourceReads = RESOURCE_RESPONSE_READS.map(parseFieldRead);
  const treeReads = RESOURCE_TREE_READS.map(parseFieldRead);
  const githubReads = new Map<string, FieldRead[]>();
  for (const read of GITHUB_READS) {
    for (const template of read.templates) githubReads.set(`${read.method} ${template} ${read.status}`, read.fields.map(parseFieldRead));
  }

  const rows: FieldRow[] = [];
  if (github) {
    for (const read of GITHUB_READS) {
      const { operationId, schema } = github.responseSchema(read.method, read.templates[0], read.status);
      const op = `${read.method.toUpperCase()} ${read.templates[0]} ${read.status} (${operationId ?? 'operation not in the description'})`;
      for (const f of read.fields.map(parseFieldRead)) {
        rows.push({ api: 'github', op, ...f, ...(schema ? lookupField(github.spec, schema, f.field) : { found: false }) });
      }
    }
  }
  if (argocdSwagger) {
    const definitions = argocdSwagger.definitions;
    for (const f of applicationReads) rows.push({ api: 'argocd-swagger', op: 'v1alpha1Application', ...f, ...lookupField(argocdSwagger, definitions.v1alpha1Application, f.field) });
    for (const f of resourceReads) rows.push({ api: 'argocd-swagger', op: 'applicationApplicationResourceResponse', ...f, ...lookupField(argocdSwagger, definitions.applicationApplicationResourceResponse, f.field) });
    for (const f of treeReads) rows.push({ api: 'argocd-swagger', op: 'v1alpha1ApplicationTree', ...f, ...lookupField(argocdSwagger, definitions.v1alpha1ApplicationTree, f.field) });
  }
  if (application) {
    for (const f of applicationReads.filter(notObjectMeta)) rows.push({ api: 'application-crd', op: 'Application', ...f, ...lookupField({}, application.schema, f.field) });
  }
  if (rollout) {
    for (const f of rolloutReads) rows.push({ api: 'rollout-crd', op: 'Rollout', ...f, ...lookupField({}, rollout.schema, f.field) });
  }

  const githubShape = github && new ValueShapeChecker(github.spec, false);
  const argocdShape = argocdSwagger && new ValueShapeChecker(argocdSwagger, true);
  const crdShape = new ValueShapeChecker({}, true);

  /** Each problem once, though several reads (health.status, health.message) pass the same wrong value. */
  const run = (shape: ValueShapeChecker, schema: SchemaNode, value: unknown, reads: FieldRead[], prefix = ''): FieldProblem[] => {
    const problems = new Map<string, FieldProblem>();
    for (const read of reads) {
      for (const p of shape.check(schema, value, read.field)) {
        const at = prefix + p.at;
        if (!problems.has(`${at} ${p.problem}`)) problems.set(`${at} ${p.problem}`, { ...read, at, problem: p.problem });
      }
    }
    return [...problems.values()];
  };

  /**
   * The problems in one judged product response; undefined when the product
   * reads nothing from it.
   */
  function check(result: ExchangeResult): FieldProblem[] | undefined {
    const { exchange } = result;
    if (result.source !== 'product' || result.injected || exchange.status < 200 || exchange.status >= 300) return undefined;
    const body = parseJson(exchange.resBody) as SchemaNode | undefined;
    if (body === undefined) return undefined;
    if (result.api === 'github' && github && githubShape && result.template) {
      const method = exchange.method.toLowerCase();
      const reads = githubReads.get(`${method} ${result.template} ${exchange.status}`);
      const { schema } = github.responseSchema(method, result.template, String(exchange.status));
      return reads && schema ? run(githubShape, schema, body, reads) : undefined;
    }
    if (result.api === 'argocd' && argocdSwagger && argocdShape) {
      const definitions = argocdSwagger.definitions;
      if (result.operationId === 'ApplicationService_List') {
        return ((body.items ?? []) as unknown[]).flatMap((app, i) => run(argocdShape, definitions.v1alpha1Application, app, applicationReads, `items[${i}].`));
      }
      if (result.operationId === 'ApplicationService_GetResource') {
        const live = typeof body.manifest === 'string' ? (parseJson(body.manifest) as SchemaNode | undefined) : undefined;
        return [
          ...run(argocdShape, definitions.applicationApplicationResourceResponse, body, resourceReads),
          ...(live?.kind === 'Rollout' && rollout ? run(crdShape, rollout.schema, live, rolloutReads, 'manifest.') : []),
        ];
      }
      if (result.operationId === 'ApplicationService_ResourceTree') return run(argocdShape, definitions.v1alpha1ApplicationTree, body, treeReads);
    }
    if (result.api === 'kubernetes') {
      if (application && /applications$/.test(result.operationId ?? '')) {
        return ((body.items ?? []) as unknown[]).flatMap((app, i) => run(crdShape, application.schema, app, applicationReads.filter(notObjectMeta), `items[${i}].`));
      }
      if (rollout && /^getNamespaced .* rollouts$/.test(result.operationId ?? '')) return run(crdShape, rollout.schema, body, rolloutReads);
      if (rollout && /^listNamespaced .* rollouts$/.test(result.operationId ?? '')) {
        return ((body.items ?? []) as unknown[]).flatMap((item, i) => run(crdShape, rollout.schema, item, rolloutReads, `items[${i}].`));
      }
    }
    return undefined;
  }

  return { rows, check };
}
