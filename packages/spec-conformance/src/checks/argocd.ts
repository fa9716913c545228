import { Exchange, ExchangeResult, jsonAnswer, parseJson } from '../exchange';
import { argocdSwagger } from '../references';
import { oasToJsonSchema } from '../schema/conversion';
import { coerceParam, parseQuery, pathRouter } from '../schema/paths';
import { SchemaNode } from '../schema/types';
import { LazyValidators, newAjv, problemsOf } from '../schema/validators';
import { CrdValidator } from './crd';

export type ArgoCdChecker = ReturnType<typeof createArgoCdChecker>;

/**
 * Checks exchanges under /argocd/ against Argo CD's swagger, and the
 * Applications and live Rollouts in them against their CRD schemas.
 */
export function createArgoCdChecker(crds: { application: CrdValidator; rollout: CrdValidator }) {
  const swagger = argocdSwagger();
  const ajv = newAjv();
  ajv.addSchema({ $id: 'argo', definitions: oasToJsonSchema(swagger.definitions) });
  const validators = new LazyValidators(ajv, schema =>
    JSON.parse(JSON.stringify(oasToJsonSchema(schema)).replace(/"#\/definitions\//g, '"argo#/definitions/')),
  );
  const route = pathRouter(Object.keys(swagger.paths));

  function queryProblems(exchange: Exchange, op: SchemaNode, pathParams: Record<string, string>): string[] {
    const problems: string[] = [];
    const query = parseQuery(exchange.query);
    const params: SchemaNode[] = op.parameters ?? [];
    for (const param of params) {
      if (param.in === 'path' && !pathParams[param.name]) problems.push(`path parameter ${param.name} is empty`);
      if (param.in !== 'query') continue;
      if (query[param.name] === undefined) {
        if (param.required) problems.push(`required query parameter ${param.name} is missing`);
        continue;
      }
      // Swagger 2.0 keeps a query parameter's schema on the parameter itself.
      const schema = { type: param.type, ...(param.items && { items: param.items }), ...(param.enum && { enum: param.enum }) };
      const value = param.type === 'array' ? query[param.name] : coerceParam(query[param.name], schema);
      problems.push(...problemsOf(validators.get(`param:${op.operationId}:${param.name}`, () => schema), value, `query ${param.name}: `));
    }
    const declared = new Set(params.filter(p => p.in === 'query').map(p => p.name));
    for (const name of Object.keys(query)) {
      if (!declared.has(name)) problems.push(`query parameter ${name} is not declared for ${op.operationId}`);
    }
    return problems;
  }

  /** Applications in a list and a live Rollout in a resource manifest, against their CRDs. */
  function objectProblems(operationId: string, body: SchemaNode, notes: string[]): string[] {
    if (operationId === 'ApplicationService_List') {
      const items: SchemaNode[] = body.items ?? [];
      notes.push(`${items.length} items`);
      return items.flatMap((app, i) => crds.application.problems(app, `items[${i}] ${app?.metadata?.name}`));
    }
    if (operationId === 'ApplicationService_GetResource' && typeof body.manifest === 'string') {
      const live = parseJson(body.manifest) as SchemaNode | undefined;
      if (!live) return ['manifest is not JSON'];
      if (live.kind === 'Rollout') return crds.rollout.problems(live, `manifest ${live.metadata?.name}`);
    }
    return [];
  }

  function check(exchange: Exchange): ExchangeResult {
    const apiPath = exchange.path.replace(/^\/argocd/, '');
    const method = exchange.method.toLowerCase();
    const base = { api: 'argocd' as const, exchange, source: 'product' as const, injected: false };
    const match = route(apiPath).find(c => swagger.paths[c.template][method]);
    if (!match) {
      return { ...base, requestProblems: [`no ${exchange.method} ${apiPath} in the swagger`], responseProblems: [], notes: [] };
    }
    const op = swagger.paths[match.template][method];
    const result: ExchangeResult = {
      ...base,
      operationId: op.operationId,
      template: match.template,
      requestProblems: queryProblems(exchange, op, match.params),
      responseProblems: [],
      notes: [],
    };
    const answer = jsonAnswer(result);
    if ('finished' in answer) return answer.finished;
    const { body } = answer;
    const documentedStatus = String(exchange.status) in op.responses ? String(exchange.status) : 'default';
    const schema = op.responses[documentedStatus]?.schema;
    if (schema) {
      const validate = validators.get(`response:${op.operationId}:${documentedStatus}`, () => schema);
      result.responseProblems.push(...problemsOf(validate, body, `response ${exchange.status} (swagger): `, Infinity));
    }
    if (exchange.status === 200) result.responseProblems.push(...objectProblems(op.operationId, body, result.notes));
    return result;
  }

  return { swagger, check };
}
