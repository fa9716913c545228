import { autoPromotionSources, walkLimit } from './walkable';

const stage = (
  name: string,
  digests: Record<string, string | undefined>,
  requiresApproval = false,
) => ({
  name,
  digests,
  requiresApproval,
});

describe('walkLimit', () => {
  it.each([
    ['no approval stage: the whole ladder', [false, false, false], 3],
    ['up to the first approval stage', [false, false, true, false, true], 2],
    ['an approval bottom rung: nothing', [true, false], 0],
    ['an empty ladder', [], 0],
  ])('%s', (_, approvals, limit) => {
    expect(
      walkLimit(approvals.map(requiresApproval => ({ requiresApproval }))),
    ).toBe(limit);
  });
});

describe('autoPromotionSources', () => {
  it.each<[string, ReturnType<typeof stage>[], string[]]>([
    [
      'a new digest in dev: dev alone',
      [
        stage('dev', { api: 'b', web: 'w' }),
        stage('test', { api: 'a', web: 'w' }),
        stage('uat', { api: 'a', web: 'w' }),
      ],
      ['dev'],
    ],
    [
      'one digest on two rungs: both sources',
      [
        stage('dev', { api: 'c' }),
        stage('test', { api: 'b' }),
        stage('uat', { api: 'a' }),
      ],
      ['dev', 'test'],
    ],
    [
      'every stage alike: none',
      [stage('dev', { api: 'a' }), stage('test', { api: 'a' })],
      [],
    ],
    [
      'a service not yet in the stage above: it offers one',
      [stage('dev', { api: 'a', worker: 'w' }), stage('test', { api: 'a' })],
      ['dev'],
    ],
    [
      'a service only the stage above has: nothing to offer',
      [
        stage('dev', { api: 'a', worker: undefined }),
        stage('test', { api: 'a', worker: 'w' }),
      ],
      [],
    ],
    [
      'never the source of a pair into an approval stage',
      [
        stage('dev', { api: 'a' }),
        stage('staging', { api: 'b' }),
        stage('prod', { api: 'c' }, true),
      ],
      ['dev'],
    ],
    ['a single stage: none', [stage('dev', { api: 'a' })], []],
  ])('%s', (_, stages, expected) => {
    expect([...autoPromotionSources(stages)].sort()).toEqual(expected);
  });
});
