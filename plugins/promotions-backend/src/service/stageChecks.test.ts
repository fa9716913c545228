import type { ProductRecords } from '../ladder/readProductRecords';
import { comparisonProblem, holdTargetProblem } from './stageChecks';

const LADDER = ['dev', 'test', 'uat', 'staging', 'prod'];

describe('comparisonProblem', () => {
  it.each([
    ['dev', 'test'],
    ['dev', 'prod'],
    ['staging', 'prod'],
  ])('compares %s with %s', (from, to) => {
    expect(comparisonProblem(LADDER, from, to)).toBeUndefined();
  });

  it.each([
    ['prod', 'dev', /prod is not below dev/],
    ['test', 'test', /test is not below test/],
    ['qa', 'test', /Unknown stage 'qa': the ladder is dev → test → uat → staging → prod/],
    ['dev', 'qa', /Unknown stage 'qa'/],
  ])('refuses %s → %s', (from, to, problem) => {
    expect(comparisonProblem(LADDER, from, to)).toMatch(problem);
  });
});

function stage(name: string, declared: string[], released: Record<string, string>) {
  return {
    name,
    release: { path: `r/${name}.yaml`, services: released, sources: {}, summary: { path: `r/${name}.yaml` } },
    environment: {
      path: `e/${name}.yaml`,
      services: declared,
      summary: { path: `e/${name}.yaml`, declaredServices: declared },
    },
  };
}

const SHOP: ProductRecords = {
  exists: true,
  services: ['storefront', 'checkout', 'legacy'],
  stages: [
    stage('dev', ['storefront', 'checkout'], { storefront: 'sha256:1', checkout: 'sha256:2' }),
    // uat does not declare checkout; legacy is still released there, undeclared
    stage('uat', ['storefront'], { storefront: 'sha256:1', legacy: 'sha256:3' }),
  ],
};

describe('holdTargetProblem', () => {
  it.each([
    ['dev', 'storefront'],
    ['uat', 'legacy'],
  ])('holds %s/%s: the ladder has that cell', (stageName, service) => {
    expect(holdTargetProblem(SHOP, stageName, service)).toBeUndefined();
  });

  it.each([
    ['uat', 'checkout', /checkout is not a service of uat/],
    ['dev', 'nope', /nope is not a service of dev/],
    ['qa', 'storefront', /Unknown stage 'qa': the ladder is dev → uat/],
  ])('refuses %s/%s', (stageName, service, problem) => {
    expect(holdTargetProblem(SHOP, stageName, service)).toMatch(problem);
  });
});
