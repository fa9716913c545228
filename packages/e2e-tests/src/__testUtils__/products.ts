import { execFileSync } from 'child_process';
import { stringify } from 'yaml';
import type { RunningSim } from '@refplat/platform-sim';

/** What adding a Product needs of a running stack. */
interface StackWithSeed {
  sim: RunningSim;
  /** main as the seed left it. */
  seedCommit: string;
}

/**
 * A Product of its own for one suite on a shared stack: a copy of the seed's
 * alpha/shop (same Services, same digests on every stage) under another
 * name, so no other suite's promotions, holds or health overrides reach it.
 */
export interface SuiteProduct {
  /** e.g. `shop-cli`: the Product's name, and its System's. */
  name: string;
  /** `alpha/<name>`, as the API and the annotations name it. */
  ref: string;
  /** The Product's routes under /api/promotions, e.g. `/products/alpha/shop-cli`. */
  route: string;
  /** The Argo CD Application of a stage, e.g. `alpha-shop-cli-staging`. */
  application(stage: string): string;
  /** Where its Release record of a stage lives in the platform repo. */
  releasePath(stage: string): string;
}

/** What a suite's Product is declared with, before the backend starts: its catalog entities are read then. */
export interface SuiteProductSpec {
  name: string;
  /** `false`: the System opts out of the auto-promoter (refplat.org/auto-promote), as the demo's blog does. */
  autoPromote?: boolean;
}

const TEAM = 'alpha';
const STAGES = ['dev', 'test', 'uat', 'staging', 'prod'];
const SEED_PRODUCT = 'shop';
const SERVICES = [
  ['storefront', "The shop's web front end"],
  ['cart', 'Shopping cart API'],
  ['checkout', 'Checkout and order placement'],
] as const;

export function suiteProduct(name: string): SuiteProduct {
  const ref = `${TEAM}/${name}`;
  return {
    name,
    ref,
    route: `/products/${ref}`,
    application: stage => `${TEAM}-${name}-${stage}`,
    releasePath: stage => `gitops/releases/${ref}/${stage}.yaml`,
  };
}

/** The catalog entities of suite Products: a System like the shop's, and its Components (named after the System, as names are unique). */
export function suiteProductEntities(specs: SuiteProductSpec[]): string {
  return specs
    .flatMap(({ name, autoPromote }) => {
      const { ref } = suiteProduct(name);
      const system = {
        apiVersion: 'backstage.io/v1alpha1',
        kind: 'System',
        metadata: {
          name,
          // As the shop's, so screenshots read the same.
          title: 'Shop',
          description: "The alpha team's web shop",
          annotations: {
            'refplat.org/product': ref,
            'refplat.org/approvers': 'group:default/shop-release',
            ...(autoPromote === false ? { 'refplat.org/auto-promote': 'false' } : {}),
          },
        },
        spec: { owner: `group:default/${TEAM}` },
      };
      const components = SERVICES.map(([service, description]) => ({
        apiVersion: 'backstage.io/v1alpha1',
        kind: 'Component',
        metadata: {
          name: `${name}-${service}`,
          description,
          annotations: { 'refplat.org/product': ref, 'refplat.org/service': service },
        },
        spec: { type: 'service', lifecycle: 'production', owner: `group:default/${TEAM}`, system: name },
      }));
      return [system, ...components];
    })
    .map(entity => stringify(entity))
    .join('---\n');
}

/** The seed's alpha/shop files (Releases and Environments) at `commit`, by path. */
function seedShopFiles(stack: StackWithSeed, commit: string): Record<string, string> {
  const git = (...args: string[]) =>
    execFileSync('git', ['--git-dir', stack.sim.repoDir, ...args], { encoding: 'utf8' });
  const paths = git('ls-tree', '-r', '--name-only', commit, 'gitops/releases/alpha/shop', 'gitops/environments/alpha/shop')
    .split('\n')
    .filter(Boolean);
  return Object.fromEntries(paths.map(path => [path, git('show', `${commit}:${path}`)]));
}

/**
 * Writes the suite's Product onto the platform repo's main as one commit, as
 * the seed left alpha/shop when the stack started. Its Applications come up
 * synced and healthy (a first deploy has nothing to canary against); the
 * backend reads the Product from main.
 */
export async function addSuiteProduct(stack: StackWithSeed, name: string): Promise<SuiteProduct> {
  const product = suiteProduct(name);
  const renamed = (text: string) =>
    text
      .replaceAll(`${TEAM}/${SEED_PRODUCT}`, product.ref)
      .replaceAll(`${TEAM}-${SEED_PRODUCT}-`, `${TEAM}-${name}-`)
      .replaceAll(`product: ${SEED_PRODUCT}\n`, `product: ${name}\n`);
  const tree = Object.entries(seedShopFiles(stack, stack.seedCommit)).map(([path, text]) => ({
    path: path.replace(`/${TEAM}/${SEED_PRODUCT}/`, `/${TEAM}/${name}/`),
    mode: '100644',
    content: renamed(text),
  }));
  const { owner, repo } = stack.sim.options;
  const api = `${stack.sim.githubApiUrl}/repos/${owner}/${repo}`;
  const headers = {
    authorization: `token ${stack.sim.tokens.github}`,
    accept: 'application/vnd.github+json',
    'content-type': 'application/json',
  };
  const call = async (method: string, route: string, body?: object) => {
    const response = await fetch(`${api}${route}`, { method, headers, body: body && JSON.stringify(body) });
    return { status: response.status, body: await response.json() };
  };
  // The Gate or a test may move main meanwhile: build on the head again until the ref moves fast-forward.
  for (let attempt = 0; attempt < 10; attempt++) {
    const head = (await call('GET', '/git/ref/heads/main')).body.object.sha as string;
    const base = (await call('GET', `/git/commits/${head}`)).body.tree.sha as string;
    const newTree = await call('POST', '/git/trees', { base_tree: base, tree });
    const commit = await call('POST', '/git/commits', {
      message: `e2e: ${product.ref}, a copy of the seed's alpha/shop for one suite`,
      tree: newTree.body.sha,
      parents: [head],
    });
    const moved = await call('PATCH', '/git/refs/heads/main', { sha: commit.body.sha, force: false });
    if (moved.status === 200) {
      await applicationsSynced(stack, product);
      return product;
    }
  }
  throw new Error(`could not add ${product.ref} to main: it kept moving`);
}

/** Until the simulator runs every stage of `product` (its next reconcile pass creates them). */
async function applicationsSynced(stack: StackWithSeed, product: SuiteProduct) {
  const names = STAGES.map(stage => product.application(stage));
  const deadline = Date.now() + 60_000;
  for (;;) {
    await stack.sim.control.reconcileNow();
    const apps = stack.sim.control.getState().apps.filter(app => names.includes(app.name));
    if (apps.length === names.length && apps.every(app => app.syncStatus === 'Synced')) return;
    if (Date.now() > deadline) {
      throw new Error(`${product.ref}'s Applications are not synced after 60 s: ${JSON.stringify(apps.map(app => [app.name, app.syncStatus]))}`);
    }
    await new Promise(resolve => setTimeout(resolve, 200));
  }
}
