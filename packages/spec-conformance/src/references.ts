import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { SchemaNode } from './schema/types';

/** This package's folder; it runs from source only (never built). */
export const PACKAGE_DIR = path.dirname(require.resolve('@refplat/spec-conformance/package.json'));

/** The vendored Argo descriptions (origin and checksums: ref/NOTICE.md). */
export const REF_DIR = path.join(PACKAGE_DIR, 'ref');

export interface GithubDescription {
  /** generated/api.github.com.json (OpenAPI 3.0) */
  spec: SchemaNode;
  /** The @octokit/openapi version it came from. */
  packageVersion: string;
}

export interface CrdDescription {
  kind: string;
  /** spec.versions[v1alpha1].schema.openAPIV3Schema */
  schema: SchemaNode;
}

// Each description is read once per module instance (per test file under
// jest, which isolates modules) and only when traffic for it was recorded.
let github: GithubDescription | undefined;
let argocd: SchemaNode | undefined;
const crds = new Map<string, CrdDescription>();

const readJsonFile = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));

export function githubDescription(): GithubDescription {
  if (!github) {
    const packageJson = require.resolve('@octokit/openapi/package.json');
    github = {
      spec: readJsonFile(path.join(path.dirname(packageJson), 'generated/api.github.com.json')),
      packageVersion: readJsonFile(packageJson).version,
    };
  }
  return github;
}

/** Argo CD's assets/swagger.json (Swagger 2.0). */
export function argocdSwagger(): SchemaNode {
  argocd ??= readJsonFile(path.join(REF_DIR, 'argocd-swagger.json'));
  return argocd!;
}

export type CrdFile = 'application-crd.yaml' | 'rollout-crd.yaml';

export function crdDescription(file: CrdFile, version = 'v1alpha1'): CrdDescription {
  const key = `${file}@${version}`;
  let crd = crds.get(key);
  if (!crd) {
    const doc = parseYaml(fs.readFileSync(path.join(REF_DIR, file), 'utf8'));
    const served = doc.spec.versions.find((v: SchemaNode) => v.name === version);
    crd = { kind: doc.spec.names.kind, schema: served.schema.openAPIV3Schema };
    crds.set(key, crd);
  }
  return crd;
}
