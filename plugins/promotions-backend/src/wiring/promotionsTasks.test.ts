import { ConfigReader } from '@backstage/config';
import { readPromotionsConfig } from '../config';
import { PromotionsParts } from './promotionsRoot';
import { promotionsTasks } from './promotionsTasks';

const base = { platformRepo: { owner: 'platform', repo: 'gitops' }, stages: ['dev', 'prod'] };

/** The parts the tasks run; only the config decides which tasks there are. */
function partsWith(promotions: object) {
  const config = readPromotionsConfig(new ConfigReader({ promotions: { ...base, ...promotions } }));
  return { config, ladders: {}, promotions: {} } as unknown as PromotionsParts;
}

describe('promotionsTasks', () => {
  const logger = { warn: jest.fn() };

  it.each([
    [
      'the defaults (no auto-promoter)',
      {},
      ['promotions-gate', 'promotions-write-queue', 'promotions-stuck-notifications', 'promotions-delivery-metrics'],
    ],
    [
      'every optional task off',
      { gate: { enabled: false }, stuckNotifications: { enabled: false }, metrics: { enabled: false } },
      ['promotions-write-queue'],
    ],
    [
      'the auto-promoter on',
      { autoPromote: { enabled: true } },
      [
        'promotions-gate',
        'promotions-write-queue',
        'promotions-auto-promoter',
        'promotions-stuck-notifications',
        'promotions-delivery-metrics',
      ],
    ],
  ])('schedules, with %s, %j', (_what, promotions, ids) => {
    const tasks = promotionsTasks(partsWith(promotions), logger);
    expect(tasks.map(task => task.id)).toEqual(ids);
    // Every task runs on one replica at a time.
    expect(tasks.every(task => task.scope === 'global')).toBe(true);
  });
});
