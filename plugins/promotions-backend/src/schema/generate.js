#!/usr/bin/env node
// A repository script, never part of a build: __dirname is this source folder.
/* eslint-disable no-restricted-syntax */
/**
 * Writes the code generated from openapi.yaml: the backend's typed router
 * (`src/schema/openapi/generated/router.ts`) and the client every consumer
 * uses (`@refplat/plugin-promotions-common`'s `src/schema/openapi/generated`).
 * `--check` writes nothing and fails when a committed file differs from what
 * the spec generates.
 *
 * Why a script of our own rather than `backstage-repo-tools package schema
 * openapi generate`: that command runs @openapitools/openapi-generator-cli,
 * which downloads the generator's jar on first use, and the build machines
 * reach no download site. The output follows its layout and names
 * (`spec`, `EndpointMap`, `createOpenApiRouter`, `DefaultApiClient`,
 * `TypedResponse`), so a switch to it later changes little for the callers.
 */
const fs = require('node:fs');
const path = require('node:path');
const YAML = require('yaml');

const SPEC = path.join(__dirname, 'openapi.yaml');
const SERVER_DIR = path.join(__dirname, 'openapi', 'generated');
const CLIENT_DIR = path.resolve(__dirname, '../../../promotions-common/src/schema/openapi/generated');
const COMMON_PACKAGE = '@refplat/plugin-promotions-common';
const HEADER =
  '// Generated from plugins/promotions-backend/src/schema/openapi.yaml by its generate.js: do not edit.\n' +
  '/* eslint-disable */\n';
const METHODS = ['get', 'post', 'put', 'delete', 'patch'];

const spec = YAML.parse(fs.readFileSync(SPEC, 'utf8'));
const schemas = spec.components?.schemas ?? {};

/** `#/components/<kind>/<name>` → the object (and its name). */
function resolve(ref) {
  const [, , kind, name] = ref.split('/');
  return { name, value: spec.components[kind][name] };
}
const deref = value => (value && value.$ref ? resolve(value.$ref).value : value);

/** Component schemas typed by -common's own types (`x-refplat-type: <module>#<type>`). */
const commonTypes = Object.entries(schemas)
  .filter(([, schema]) => schema['x-refplat-type'])
  .map(([name, schema]) => {
    const [module, type] = schema['x-refplat-type'].split('#');
    return { name, module, type };
  });
const commonTypeOf = name => commonTypes.find(common => common.name === name)?.type;

const quoteKey = key => (/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key));

/** The TypeScript type a JSON schema describes (the subset openapi.yaml uses). */
function tsType(schema) {
  if (!schema) return 'unknown';
  if (schema.$ref) {
    const { name } = resolve(schema.$ref);
    return commonTypeOf(name) ?? name;
  }
  if (schema.allOf) return schema.allOf.map(tsType).join(' & ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map(value => JSON.stringify(value)).join(' | ');
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
      return `Array<${tsType(schema.items)}>`;
    case 'object': {
      const properties = Object.entries(schema.properties ?? {});
      if (!properties.length && schema.additionalProperties) {
        return `Record<string, ${tsType(schema.additionalProperties)}>`;
      }
      if (!properties.length) return 'Record<string, unknown>';
      const required = new Set(schema.required ?? []);
      const fields = properties.map(
        ([key, value]) => `${quoteKey(key)}${required.has(key) ? '' : '?'}: ${tsType(value)}`,
      );
      return `{ ${fields.join('; ')} }`;
    }
    default:
      return 'unknown';
  }
}

const jsonContent = holder => deref(holder)?.content?.['application/json']?.schema;

function operations() {
  const found = [];
  for (const [route, item] of Object.entries(spec.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const parameters = (operation.parameters ?? []).map(deref);
      const success = Object.entries(operation.responses)
        .filter(([status]) => /^2\d\d$/.test(status))
        .map(([, response]) => jsonContent(response));
      const body = operation.requestBody && deref(operation.requestBody);
      found.push({
        route,
        method,
        id: operation.operationId,
        description: operation.description,
        path: parameters.filter(parameter => parameter.in === 'path'),
        query: parameters.filter(parameter => parameter.in === 'query'),
        body: body && { required: Boolean(body.required), type: tsType(jsonContent(body)) },
        response: [...new Set(success.map(tsType))].join(' | ') || 'void',
      });
    }
  }
  return found;
}

function parametersType(parameters) {
  const fields = parameters.map(
    parameter => `${quoteKey(parameter.name)}${parameter.required ? '' : '?'}: ${tsType(parameter.schema)}`,
  );
  return `{ ${fields.join('; ')} }`;
}

function commonImports(types, from) {
  const names = [...new Set(types)].sort();
  return names.length ? `import type { ${names.join(', ')} } from '${from}';\n` : '';
}

/** Which of -common's types a piece of generated code names. */
const namedCommonTypes = code =>
  commonTypes.map(common => common.type).filter(type => new RegExp(`\\b${type}\\b`).test(code));

/** -common's types for code inside -common: from their own modules (its index would be a circle). */
function moduleImports(types) {
  const byModule = new Map();
  for (const type of new Set(types)) {
    const { module } = commonTypes.find(common => common.type === type);
    byModule.set(module, [...(byModule.get(module) ?? []), type]);
  }
  return [...byModule.keys()]
    .sort()
    .map(module => commonImports(byModule.get(module), `../../../${module}`))
    .join('');
}

/** Component schemas that are no -common type: generated as types of their own. */
function models() {
  const generated = Object.entries(schemas)
    .filter(([, schema]) => !schema['x-refplat-type'])
    .map(([name, schema]) => {
      // One comment: API Extractor reads only the last one before a declaration.
      const doc = schema.description ? `/**\n * ${schema.description.trim()}\n *\n * @public\n */\n` : '/** @public */\n';
      return `${doc}export type ${name} = ${tsType(schema)};\n`;
    });
  return generated.join('\n');
}

function serverRouter() {
  const ops = operations();
  const entries = ops.map(op => {
    const key = `#${op.method === 'delete' ? '_delete' : op.method}|${op.route}`;
    const parts = [];
    if (op.path.length) parts.push(`path: ${parametersType(op.path)}`);
    if (op.query.length) parts.push(`query: ${parametersType(op.query)}`);
    if (op.body) parts.push(`body: ${op.body.type}`);
    parts.push(`response: ${op.response}`);
    return `  '${key}': { ${parts.join('; ')} };`;
  });
  const endpointMap = `export type EndpointMap = {\n${entries.join('\n')}\n};\n`;
  const modelNames = Object.keys(schemas).filter(name => !schemas[name]['x-refplat-type']);
  const usedModels = modelNames.filter(name => new RegExp(`\\b${name}\\b`).test(endpointMap));
  return [
    HEADER,
    "import { createValidatedOpenApiRouterFromGeneratedEndpointMap } from '@backstage/backend-openapi-utils';\n",
    commonImports([...namedCommonTypes(endpointMap), ...usedModels], COMMON_PACKAGE),
    '\n/** The routes as openapi.yaml declares them. */\n',
    `export const spec = ${JSON.stringify(spec, null, 2)} as const;\n\n`,
    "/** Each route's path and query parameters, body and answer, keyed `#<method>|<path>`. */\n",
    endpointMap,
    '\n/** An Express router whose routes are typed by the spec (and which serves it at `/openapi.json`). */\n',
    'export const createOpenApiRouter = async (\n',
    '  options?: Parameters<typeof createValidatedOpenApiRouterFromGeneratedEndpointMap>[1],\n',
    ') => createValidatedOpenApiRouterFromGeneratedEndpointMap<EndpointMap>(spec, options);\n',
  ].join('');
}

const methodName = id => id.charAt(0).toLowerCase() + id.slice(1);

function clientMethod(op) {
  const request = [];
  // A query of optional parameters alone may be left out: adding one to a route breaks no caller.
  const queryOptional = op.query.every(parameter => !parameter.required);
  if (op.path.length) request.push(`path: ${parametersType(op.path)}`);
  if (op.query.length) request.push(`query${queryOptional ? '?' : ''}: ${parametersType(op.query)}`);
  if (op.body) request.push(`body${op.body.required ? '' : '?'}: ${op.body.type}`);
  const requestType = request.length ? `{ ${request.join('; ')} }` : '{}';
  const optional = request.length ? '' : ' = {}';
  const uri = op.route.replace(/\{(\w+)\}/g, (_, name) => `\${encodeURIComponent(request.path.${name})}`);
  const queryArgument = queryOptional ? 'request.query ?? {}' : 'request.query';
  const query = op.query.length ? ` + queryString(${queryArgument}, ${JSON.stringify(op.query.map(q => q.name))})` : '';
  const body = op.body ? 'request.body' : 'undefined';
  return [
    `  /** ${op.method.toUpperCase()} ${op.route}${op.description ? `: ${op.description.trim()}` : ''} */`,
    `  async ${methodName(op.id)}(`,
    // Backstage's generated clients take a request argument even where there is nothing to send.
    `    ${request.length ? 'request' : '_request'}: ${requestType}${optional},`,
    '    options?: RequestOptions,',
    `  ): Promise<TypedResponse<${op.response}>> {`,
    `    return this.send('${op.method.toUpperCase()}', \`${uri}\`${query}, ${body}, options);`,
    '  }',
  ].join('\n');
}

function clientFile() {
  const ops = operations();
  const methods = ops.map(clientMethod).join('\n\n');
  const modelNames = Object.keys(schemas).filter(name => !schemas[name]['x-refplat-type']);
  const usedModels = modelNames.filter(name => new RegExp(`\\b${name}\\b`).test(methods));
  return [
    HEADER,
    moduleImports(namedCommonTypes(methods)),
    usedModels.length ? `import type { ${usedModels.join(', ')} } from './models';\n` : '',
    `
/** A Response whose \`json()\` is the route's answer. @public */
export type TypedResponse<T> = Omit<Response, 'json'> & { json(): Promise<T> };

/** Per call: a Backstage token sent as \`Authorization: Bearer <token>\`. @public */
export interface RequestOptions {
  token?: string;
}

/** Finds the plugin's base URL (Backstage's DiscoveryApi or DiscoveryService). @public */
export interface DiscoveryLike {
  getBaseUrl(pluginId: string): Promise<string>;
}

/** Sends the requests (Backstage's FetchApi, or the global fetch). @public */
export interface FetchLike {
  fetch: typeof fetch;
}

function queryString(query: Record<string, unknown>, names: string[]): string {
  const params = new URLSearchParams();
  for (const name of names) {
    const value = query[name];
    if (value !== undefined) params.set(name, String(value));
  }
  const text = params.toString();
  return text ? \`?\${text}\` : '';
}

/**
 * The \`${spec.info.title}\` backend's routes (\`/api/${spec.info.title}\`), one method per operation of
 * openapi.yaml. It answers the Response as it came: callers decide what a status means.
 *
 * @public
 */
export class DefaultApiClient {
  private readonly discoveryApi: DiscoveryLike;
  private readonly fetchApi: FetchLike;

  constructor(options: { discoveryApi: DiscoveryLike; fetchApi?: FetchLike }) {
    this.discoveryApi = options.discoveryApi;
    this.fetchApi = options.fetchApi ?? { fetch: (input, init) => fetch(input, init) };
  }

${methods}

  private async send<T>(
    method: string,
    path: string,
    body: unknown,
    options: RequestOptions | undefined,
  ): Promise<TypedResponse<T>> {
    const baseUrl = await this.discoveryApi.getBaseUrl('${spec.info.title}');
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (options?.token) headers.Authorization = \`Bearer \${options.token}\`;
    const init: RequestInit = { method };
    if (Object.keys(headers).length) init.headers = headers;
    if (body !== undefined) init.body = JSON.stringify(body);
    return this.fetchApi.fetch(\`\${baseUrl}\${path}\`, init) as Promise<TypedResponse<T>>;
  }
}
`,
  ].join('');
}

function modelsFile() {
  const code = models();
  return `${HEADER}${moduleImports(namedCommonTypes(code))}\n${code}`;
}

const CLIENT_INDEX = `${HEADER}export * from './models';\nexport * from './DefaultApi.client';\n`;

const outputs = {
  [path.join(SERVER_DIR, 'router.ts')]: serverRouter(),
  [path.join(SERVER_DIR, 'index.ts')]: `${HEADER}export * from './router';\n`,
  [path.join(CLIENT_DIR, 'models.ts')]: modelsFile(),
  [path.join(CLIENT_DIR, 'DefaultApi.client.ts')]: clientFile(),
  [path.join(CLIENT_DIR, 'index.ts')]: CLIENT_INDEX,
};

/** Formats like the repository's prettier config, so a check compares like with like. */
async function formatted(file, text) {
  // The repository's formatter (a root dev dependency): the script runs in the repository only.
  // eslint-disable-next-line @backstage/no-undeclared-imports
  const prettier = require('prettier');
  const config = (await prettier.resolveConfig(file)) ?? {};
  return prettier.format(text, { ...config, filepath: file });
}

async function main() {
  const check = process.argv.includes('--check');
  const stale = [];
  for (const [file, text] of Object.entries(outputs)) {
    const wanted = await formatted(file, text);
    const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
    if (current === wanted) continue;
    if (check) {
      stale.push(path.relative(process.cwd(), file));
    } else {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, wanted);
      console.log(`wrote ${path.relative(process.cwd(), file)}`);
    }
  }
  if (stale.length) {
    console.error(
      `Generated from openapi.yaml, but differs from it: ${stale.join(', ')}.\n` +
        'Run `npm run schema:generate --workspace @refplat/plugin-promotions-backend` and commit the result.',
    );
    process.exitCode = 1;
  }
}

main().catch(error => {
  console.error(error);
  process.exitCode = 1;
});
