import { Exchange, ExchangeResult, jsonAnswer } from '../exchange';
import { parseQuery } from '../schema/paths';
import { SchemaNode } from '../schema/types';
import { CrdValidator } from './crd';

// No OpenAPI document covers custom-resource routes; these are the standard
// collection and item URLs and query parameters of the Kubernetes API conventions.
const CUSTOM_RESOURCE_PATH = /^\/apis\/([^/]+)\/([^/]+)\/namespaces\/([^/]+)\/([^/]+)(?:\/([^/]+))?$/;
const LIST_PARAMS = new Set(['allowWatchBookmarks', 'continue', 'fieldSelector', 'labelSelector', 'limit', 'pretty', 'resourceVersion', 'resourceVersionMatch', 'sendInitialEvents', 'timeoutSeconds', 'watch']);
const GET_PARAMS = new Set(['pretty', 'resourceVersion']);

export type KubernetesChecker = ReturnType<typeof createKubernetesChecker>;

/** Checks exchanges under /k8s/: Kubernetes conventions, and Applications and Rollouts against their CRDs. */
export function createKubernetesChecker(crds: { application: CrdValidator; rollout: CrdValidator }) {
  const crdByPlural: Record<string, CrdValidator | undefined> = { applications: crds.application, rollouts: crds.rollout };
  const crdFor = (plural: string) => crdByPlural[plural];

  function bodyProblems(exchange: Exchange, plural: string, name: string | undefined, body: SchemaNode, notes: string[]): string[] {
    if (exchange.status >= 400) return body.kind === 'Status' ? [] : ['error body is not a Status object'];
    if (exchange.status !== 200) return [];
    const crd = crdFor(plural);
    if (name) return crd ? crd.problems(body, `${plural}/${name}`) : [];
    const items: SchemaNode[] = body.items ?? [];
    notes.push(`${items.length} items`);
    return [
      ...(crd && body.kind !== `${crd.kind}List` ? [`list kind is ${body.kind}, not ${crd.kind}List`] : []),
      ...items.flatMap((item, i) => (crd ? crd.problems(item, `items[${i}] ${item?.metadata?.name}`) : [])),
    ];
  }

  function check(exchange: Exchange): ExchangeResult {
    const apiPath = exchange.path.replace(/^\/k8s/, '');
    const base = { api: 'kubernetes' as const, exchange, source: 'product' as const, injected: false };
    const match = CUSTOM_RESOURCE_PATH.exec(apiPath);
    if (!match) {
      return { ...base, operationId: `other ${apiPath}`, requestProblems: [], responseProblems: [], notes: ['not a namespaced custom-resource path; not judged'] };
    }
    const [, group, version, , plural, name] = match;
    const allowed = name ? GET_PARAMS : LIST_PARAMS;
    const result: ExchangeResult = {
      ...base,
      operationId: `${name ? 'getNamespaced' : 'listNamespaced'} ${group}/${version} ${plural}`,
      template: `/apis/${group}/${version}/namespaces/{namespace}/${plural}${name ? '/{name}' : ''}`,
      requestProblems: Object.keys(parseQuery(exchange.query))
        .filter(key => !allowed.has(key))
        .map(key => `query ${key} is not a Kubernetes ${name ? 'get' : 'list'} parameter`),
      responseProblems: [],
      notes: [],
    };
    const answer = jsonAnswer(result);
    if ('finished' in answer) return answer.finished;
    result.responseProblems.push(...bodyProblems(exchange, plural, name, answer.body, result.notes));
    return result;
  }

  return { check };
}
