import { Exchange, ExchangeResult, parseJson } from '../exchange';
import { githubDescription } from '../references';
import { deref, oasToJsonSchema } from '../schema/conversion';
import { coerceParam, parseQuery, pathRouter, RouteMatch } from '../schema/paths';
import { SchemaNode } from '../schema/types';
import { LazyValidators, newAjv, problemsOf } from '../schema/validators';

/** The product's GitHub client (plugins/promotions-backend/src/github/createOctokit.ts) says so. */
export const PRODUCT_USER_AGENT = /backstage-plugin-promotions/;

/** Media types GitHub documents for the REST API. */
const MEDIA_TYPES = new Set([
  'application/json',
  'application/vnd.github+json',
  'application/vnd.github.v3+json',
  'application/vnd.github.raw',
  'application/vnd.github.raw+json',
  'application/vnd.github.object',
  'application/vnd.github.object+json',
  'application/vnd.github.html+json',
  'application/vnd.github.diff',
  'application/vnd.github.patch',
  'application/vnd.github.text+json',
  'application/vnd.github.full+json',
  'application/vnd.github.sha',
  '*/*',
]);

/** GitHub path parameters that may contain slashes. */
const GREEDY_PARAMS = ['path', 'ref', 'basehead'];

/** The simulator's injected faults (outages, 5xx) carry no request id; GitHub's answers always do. */
const isInjected = (exchange: Exchange) => !exchange.resHeaders['x-github-request-id'];

export type GithubChecker = ReturnType<typeof createGithubChecker>;

/** Checks exchanges under /github/ against api.github.com.json from @octokit/openapi. */
export function createGithubChecker() {
  const { spec, packageVersion } = githubDescription();
  const ajv = newAjv();
  ajv.addSchema({ $id: 'gh', components: { schemas: oasToJsonSchema(spec.components.schemas) } });
  const validators = new LazyValidators(ajv, schema =>
    JSON.parse(JSON.stringify(oasToJsonSchema(schema)).replace(/"#\/components\/schemas\//g, '"gh#/components/schemas/')),
  );
  const route = pathRouter(Object.keys(spec.paths), GREEDY_PARAMS);
  const resolve = (node: unknown) => deref(spec, node);

  function findOperation(exchange: Exchange): { match?: RouteMatch; op?: SchemaNode; problem?: string } {
    const apiPath = exchange.path.replace(/^\/github/, '');
    const candidates = route(apiPath);
    if (!candidates.length) return { problem: `no path in the description matches ${apiPath}` };
    const method = exchange.method.toLowerCase();
    const match = candidates.find(c => spec.paths[c.template][method]);
    if (!match) {
      const allowed = Object.keys(spec.paths[candidates[0].template]).join(',');
      return { problem: `${exchange.method} is not allowed on ${candidates[0].template} (the description has ${allowed})` };
    }
    return { match, op: spec.paths[match.template][method] };
  }

  function paramProblems(exchange: Exchange, match: RouteMatch, op: SchemaNode): string[] {
    const problems: string[] = [];
    const pathItem = spec.paths[match.template];
    const params: SchemaNode[] = [...(pathItem.parameters ?? []), ...(op.parameters ?? [])].map(resolve);
    const query = parseQuery(exchange.query);
    for (const param of params) {
      const validate = () => validators.get(`param:${op.operationId}:${param.name}`, () => param.schema ?? {});
      if (param.in === 'path') {
        const value = match.params[param.name];
        if (!value) problems.push(`path parameter ${param.name} is empty`);
        else problems.push(...problemsOf(validate(), coerceParam([value], param.schema), `path parameter ${param.name}=${value}: `));
      } else if (param.in === 'query') {
        if (query[param.name] === undefined) {
          if (param.required) problems.push(`required query parameter ${param.name} is missing`);
        } else {
          problems.push(...problemsOf(validate(), coerceParam(query[param.name], param.schema), `query ${param.name}=${query[param.name]}: `));
        }
      }
    }
    const declared = new Set(params.filter(p => p.in === 'query').map(p => p.name));
    for (const name of Object.keys(query)) {
      if (!declared.has(name)) problems.push(`query parameter ${name} is not declared for ${op.operationId}`);
    }
    return problems;
  }

  function headerProblems(exchange: Exchange): string[] {
    const accept = exchange.reqHeaders.accept;
    if (!accept) return [];
    return accept
      .split(',')
      .map(part => part.trim().split(';')[0])
      .filter(type => !MEDIA_TYPES.has(type))
      .map(type => `Accept ${type} is not a GitHub media type`);
  }

  function bodyProblems(exchange: Exchange, op: SchemaNode, notes: string[]): string[] {
    const requestBody = op.requestBody ? resolve(op.requestBody) : undefined;
    if (!exchange.reqBody) {
      if (!requestBody?.required || !['POST', 'PUT', 'PATCH'].includes(exchange.method)) return [];
      // An injected fault answers before the body is read, so none was recorded.
      if (isInjected(exchange)) {
        notes.push('request body not observed (an injected fault answered before it was read)');
        return [];
      }
      return [`request body required by ${op.operationId} but none sent`];
    }
    const body = parseJson(exchange.reqBody);
    if (body === undefined) return ['request body is not JSON'];
    if (!requestBody) return [`request body sent but ${op.operationId} takes none: ${exchange.reqBody.slice(0, 200)}`];
    const schema = requestBody.content?.['application/json']?.schema;
    return schema ? problemsOf(validators.get(`body:${op.operationId}`, () => schema), body, 'request body: ') : [];
  }

  function responseProblems(exchange: Exchange, op: SchemaNode, notes: string[]): string[] {
    const injected = isInjected(exchange);
    const documented = op.responses[String(exchange.status)] ?? op.responses.default;
    if (!documented) {
      const message = `status ${exchange.status} is not documented for ${op.operationId} (the description has ${Object.keys(op.responses).join(',')})`;
      if (exchange.status === 304 && exchange.reqHeaders['if-none-match']) {
        // GitHub documents conditional requests for the whole API, not per operation.
        notes.push(`${message}; GitHub answers 304 to any conditional request`);
        return [];
      }
      if (injected) notes.push(message);
      return injected ? [] : [message];
    }
    if (exchange.status === 204 || exchange.status === 304) {
      return exchange.resBody ? [`status ${exchange.status} with a body`] : [];
    }
    const content: SchemaNode = resolve(documented).content ?? {};
    const contentType = (exchange.resHeaders['content-type'] ?? '').split(';')[0].trim();
    const mediaType = [contentType, 'application/json', ...Object.keys(content)].find(type => content[type]);
    if (!mediaType) {
      if (exchange.resBody) notes.push(`the description documents no body for ${exchange.status}`);
      return [];
    }
    const body = parseJson(exchange.resBody);
    if (body === undefined) return [`response body is not JSON (content-type ${contentType})`];
    const schema = content[mediaType].schema;
    if (!schema) return [];
    const validate = validators.get(`response:${op.operationId}:${exchange.status}:${mediaType}`, () => schema);
    return problemsOf(validate, body, `response ${exchange.status}: `, Infinity);
  }

  function check(exchange: Exchange): ExchangeResult {
    const source = PRODUCT_USER_AGENT.test(exchange.reqHeaders['user-agent'] ?? '') ? 'product' : 'harness';
    const injected = isInjected(exchange);
    const base = { api: 'github' as const, exchange, source, injected } satisfies Partial<ExchangeResult>;
    const { match, op, problem } = findOperation(exchange);
    if (!match || !op) return { ...base, requestProblems: [problem!], responseProblems: [], notes: [] };
    const notes: string[] = [];
    const requestProblems = [
      ...paramProblems(exchange, match, op),
      ...headerProblems(exchange),
      ...bodyProblems(exchange, op, notes),
    ];
    const responses = exchange.status === 0 ? [] : responseProblems(exchange, op, notes);
    if (exchange.status === 0) notes.push('connection dropped');
    return {
      ...base,
      operationId: op.operationId,
      template: match.template,
      requestProblems,
      responseProblems: responses,
      notes,
    };
  }

  /** The documented response schema of an operation, for the field-read checks. */
  function responseSchema(method: string, template: string, status: string): { operationId?: string; schema?: SchemaNode } {
    const op = spec.paths[template]?.[method];
    const response = op && resolve(op.responses[status]);
    return { operationId: op?.operationId, schema: response?.content?.['application/json']?.schema };
  }

  return { spec, packageVersion, check, responseSchema };
}
