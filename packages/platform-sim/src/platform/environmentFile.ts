import { parseDocument } from 'yaml';
import { StageKey, stageName } from './layout';
import { PLATFORM_API_VERSION } from './releaseFile';

export interface EnvironmentRecord {
  name: string;
  team: string;
  product: string;
  stage: string;
  services: string[];
}

export function renderEnvironment(key: StageKey, services: string[]): string {
  const lines = [
    `apiVersion: ${PLATFORM_API_VERSION}`,
    'kind: Environment',
    'metadata:',
    `  name: ${stageName(key)}`,
    'spec:',
    `  team: ${key.team}`,
    `  product: ${key.product}`,
    `  stage: ${key.stage}`,
    '  services:',
    ...services.map(service => `    - name: ${service}`),
  ];
  return `${lines.join('\n')}\n`;
}

export function parseEnvironment(text: string): EnvironmentRecord {
  const doc = parseDocument(text);
  if (doc.errors.length > 0)
    throw new Error(`invalid YAML: ${doc.errors[0].message}`);
  const value = doc.toJS() as any;
  if (value?.kind !== 'Environment')
    throw new Error(`expected kind Environment, got ${value?.kind}`);
  const spec = value?.spec ?? {};
  return {
    name: String(value?.metadata?.name ?? ''),
    team: String(spec.team ?? ''),
    product: String(spec.product ?? ''),
    stage: String(spec.stage ?? ''),
    services: Array.isArray(spec.services)
      ? spec.services.map((s: any) => String(s?.name ?? s))
      : [],
  };
}
