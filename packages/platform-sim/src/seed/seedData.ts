import { digestFor } from './digests';
import { STAGES } from '../platform/layout';

/** One product and which services each stage's Environment declares. */
export interface SeedProduct {
  team: string;
  product: string;
  services: string[];
  /** stage → declared services, when a stage does not run them all. */
  declared?: Partial<Record<string, string[]>>;
}

/** One digest change in a seed commit. */
export interface SeedBump {
  team: string;
  product: string;
  stage: string;
  service: string;
  version: number;
}

export interface SeedCommit {
  authorLogin: string;
  date: string;
  message: string;
  bumps: SeedBump[];
}

export const SEED_PRODUCTS: SeedProduct[] = [
  {
    team: 'alpha',
    product: 'shop',
    services: ['storefront', 'cart', 'checkout'],
    // uat does not run checkout, so checkout cannot climb past test.
    declared: { uat: ['storefront', 'cart'] },
  },
  { team: 'beta', product: 'payments', services: ['ledger', 'gateway'] },
];

/** The digest of a service at a seeded version: sha256 of "<team>/<product>/<service>:v<n>". */
export function seedDigest(
  team: string,
  product: string,
  service: string,
  version: number,
): string {
  return digestFor(`${team}/${product}/${service}:v${version}`);
}

export function declaredServices(
  product: SeedProduct,
  stage: string,
): string[] {
  return product.declared?.[stage] ?? product.services;
}

/** CI writes dev, bob promotes to prod, the bot does the rungs between. */
function betaAuthor(stage: string): string {
  if (stage === 'dev') return 'ci-bot';
  return stage === 'prod' ? 'bob' : 'promotions-bot';
}

const bumps = (
  team: string,
  product: string,
  stage: string,
  services: string[],
  version: number,
): SeedBump[] =>
  services.map(service => ({ team, product, stage, service, version }));

/**
 * The history written after the initial layout commit (everything at v1).
 * End state, alpha/shop:
 *   dev      storefront v3  cart v2  checkout v2
 *   test     storefront v2  cart v2  checkout v2
 *   uat      storefront v2  cart v2  (no checkout)
 *   staging  storefront v2  cart v2  checkout v1
 *   prod     storefront v2  cart v1  checkout v1
 * beta/payments: ledger v2 and gateway v2 on every stage.
 */
export const SEED_HISTORY: SeedCommit[] = [
  {
    authorLogin: 'ci-bot',
    date: '2026-01-05T10:00:00Z',
    message: 'ci: alpha/shop storefront v2 to dev',
    bumps: bumps('alpha', 'shop', 'dev', ['storefront'], 2),
  },
  {
    authorLogin: 'ci-bot',
    date: '2026-01-05T11:30:00Z',
    message: 'ci: alpha/shop cart v2, checkout v2 to dev',
    bumps: bumps('alpha', 'shop', 'dev', ['cart', 'checkout'], 2),
  },
  {
    authorLogin: 'promotions-bot',
    date: '2026-01-06T09:15:00Z',
    message: 'promote alpha/shop dev -> test: storefront, cart, checkout',
    bumps: bumps(
      'alpha',
      'shop',
      'test',
      ['storefront', 'cart', 'checkout'],
      2,
    ),
  },
  {
    authorLogin: 'promotions-bot',
    date: '2026-01-06T14:00:00Z',
    message: 'promote alpha/shop test -> uat: storefront, cart',
    bumps: bumps('alpha', 'shop', 'uat', ['storefront', 'cart'], 2),
  },
  {
    authorLogin: 'alice',
    date: '2026-01-07T10:00:00Z',
    message: 'promote alpha/shop uat -> staging: storefront, cart',
    bumps: bumps('alpha', 'shop', 'staging', ['storefront', 'cart'], 2),
  },
  {
    authorLogin: 'bob',
    date: '2026-01-08T16:45:00Z',
    message: 'promote alpha/shop staging -> prod: storefront',
    bumps: bumps('alpha', 'shop', 'prod', ['storefront'], 2),
  },
  {
    authorLogin: 'ci-bot',
    date: '2026-01-09T08:20:00Z',
    message: 'ci: alpha/shop storefront v3 to dev',
    bumps: bumps('alpha', 'shop', 'dev', ['storefront'], 3),
  },
  ...STAGES.map((stage, index) => ({
    authorLogin: betaAuthor(stage),
    date: `2026-01-1${index}T12:00:00Z`,
    message:
      stage === 'dev'
        ? 'ci: beta/payments ledger v2, gateway v2 to dev'
        : `promote beta/payments ${STAGES[index - 1]} -> ${stage}: ledger, gateway`,
    bumps: bumps('beta', 'payments', stage, ['ledger', 'gateway'], 2),
  })),
];

/**
 * The demo's Product that climbs by hand only (its System opts out of the
 * auto-promoter): every rung has a newer digest waiting below it. Seeded with
 * `demoProducts`, so tests that count the seed's Products keep theirs.
 */
export const DEMO_PRODUCTS: SeedProduct[] = [
  { team: 'alpha', product: 'blog', services: ['web', 'comments'] },
];

/**
 * End state, alpha/blog:
 *   dev      web v4  comments v2
 *   test     web v3  comments v2
 *   uat      web v3  comments v1
 *   staging  web v2  comments v1
 *   prod     web v1  comments v1
 */
export const DEMO_HISTORY: SeedCommit[] = [
  {
    authorLogin: 'ci-bot',
    date: '2026-01-05T12:00:00Z',
    message: 'ci: alpha/blog web v2, comments v2 to dev',
    bumps: bumps('alpha', 'blog', 'dev', ['web', 'comments'], 2),
  },
  {
    authorLogin: 'bob',
    date: '2026-01-06T10:00:00Z',
    message: 'promote alpha/blog dev -> test: web, comments',
    bumps: bumps('alpha', 'blog', 'test', ['web', 'comments'], 2),
  },
  {
    authorLogin: 'bob',
    date: '2026-01-06T15:00:00Z',
    message: 'promote alpha/blog test -> uat: web',
    bumps: bumps('alpha', 'blog', 'uat', ['web'], 2),
  },
  {
    authorLogin: 'bob',
    date: '2026-01-07T11:00:00Z',
    message: 'promote alpha/blog uat -> staging: web',
    bumps: bumps('alpha', 'blog', 'staging', ['web'], 2),
  },
  {
    authorLogin: 'ci-bot',
    date: '2026-01-08T09:00:00Z',
    message: 'ci: alpha/blog web v3 to dev',
    bumps: bumps('alpha', 'blog', 'dev', ['web'], 3),
  },
  {
    authorLogin: 'bob',
    date: '2026-01-08T14:00:00Z',
    message: 'promote alpha/blog dev -> test: web',
    bumps: bumps('alpha', 'blog', 'test', ['web'], 3),
  },
  {
    authorLogin: 'bob',
    date: '2026-01-09T10:00:00Z',
    message: 'promote alpha/blog test -> uat: web',
    bumps: bumps('alpha', 'blog', 'uat', ['web'], 3),
  },
  {
    authorLogin: 'ci-bot',
    date: '2026-01-09T16:00:00Z',
    message: 'ci: alpha/blog web v4 to dev',
    bumps: bumps('alpha', 'blog', 'dev', ['web'], 4),
  },
];

export const SEED_INITIAL_COMMIT = {
  authorLogin: 'alice',
  date: '2026-01-05T09:00:00Z',
  message:
    'Initial platform layout: alpha/shop and beta/payments\n\nEvery stage starts at v1 of every service.',
};

/** What a seed writes: the Products and their history in date order (the demo's Products with `demo`). */
export function seedStory(demo: boolean): { products: SeedProduct[]; history: SeedCommit[] } {
  if (!demo) return { products: SEED_PRODUCTS, history: SEED_HISTORY };
  return {
    products: [...SEED_PRODUCTS, ...DEMO_PRODUCTS],
    history: [...SEED_HISTORY, ...DEMO_HISTORY].sort((a, b) => a.date.localeCompare(b.date)),
  };
}

/**
 * The story of one seeded Product (`like`, e.g. `alpha/shop`) told of another
 * Product of the same team: the same services, stages and commits, with the
 * new name in paths, messages and digests (seedDigest of the new name), so
 * that no two Products share a digest. A test adds one to have a Product of
 * its own on a shared simulator.
 */
export function productStoryLike(
  like: string,
  product: string,
): { products: SeedProduct[]; initial: Omit<SeedCommit, 'bumps'>; history: SeedCommit[] } | undefined {
  const seeded = [...SEED_PRODUCTS, ...DEMO_PRODUCTS].find(p => `${p.team}/${p.product}` === like);
  if (!seeded) return undefined;
  const renamed = (text: string) => text.split(like).join(`${seeded.team}/${product}`);
  return {
    products: [{ ...seeded, product }],
    initial: {
      ...SEED_INITIAL_COMMIT,
      message: `Add ${seeded.team}/${product}, laid out as ${like} was\n\nEvery stage starts at v1 of every service.`,
    },
    history: [...SEED_HISTORY, ...DEMO_HISTORY]
      .filter(step => step.bumps.some(bump => `${bump.team}/${bump.product}` === like))
      .map(step => ({
        ...step,
        message: renamed(step.message),
        bumps: step.bumps.map(bump => ({ ...bump, product })),
      })),
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;
const SEED_STORY_END = Math.max(...SEED_HISTORY.map(step => Date.parse(step.date)));

/**
 * A seed date moved so that the seed's story ends a day before `now`, its
 * spacing kept: the demo's delivery metrics (the last four weeks by default)
 * then show the seed's climbs, and a test's window of the last hours holds
 * only what the test itself did. Whole seconds, as git records them.
 */
export function seedDateAsOf(date: string, now: Date): string {
  const shifted = Date.parse(date) + (now.getTime() - DAY_MS - SEED_STORY_END);
  return new Date(Math.floor(shifted / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
