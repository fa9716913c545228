import { InputError } from '@backstage/errors';
import { checkedBody } from './requestBodies';

const DIGEST = `sha256:${'a'.repeat(64)}`;
const INCIDENT = { product: 'alpha/shop', id: 'INC-1', state: 'open', url: 'https://status.example/INC-1' };

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('checkedBody', () => {
  it.each([
    ['PromotionRequest', { toStage: 'test', services: ['cart'], override: { reason: 'hotfix' } }],
    ['RollbackRequest', { stage: 'prod', services: { cart: DIGEST } }],
    ['HoldRequest', { stage: 'uat', service: 'cart', reason: `  ${'x'.repeat(900)} ` }],
    ['ReasonRequest', { reason: 'x'.repeat(1000) }],
    ['IncidentReport', INCIDENT],
  ] as const)('takes a %s as openapi.yaml describes it', (name, body) => {
    expect(checkedBody(name, body)).toBe(body);
  });

  it.each([
    ['PromotionRequest', { toStage: 'Prod' }, 'body/toStage must match pattern'],
    ['PromotionRequest', { toStage: 'test', services: [] }, 'body/services must NOT have fewer than 1 items'],
    ['PromotionRequest', { toStage: 'test', override: { reason: ' ' } }, 'body/override/reason must match pattern'],
    ['RollbackRequest', { stage: 'prod', services: { cart: 'latest' } }, 'body/services/cart must match pattern'],
    ['HoldRequest', { stage: 'uat', service: 'cart', reason: '   ' }, 'body/reason must match pattern'],
    ['ReasonRequest', { reason: 'x'.repeat(1001) }, 'body/reason must NOT have more than 1000 characters'],
    ['IncidentReport', { ...INCIDENT, state: 'closed' }, 'body/state must be equal to one of the allowed values: open, resolved'],
    ['IncidentReport', [], 'body must be object'],
  ] as const)('refuses a %s like %j: %s', (name, body, message) => {
    expect(refusal(() => checkedBody(name, body))).toContain(message);
  });

  it('says what is wrong without the value, however large', () => {
    const huge = 'x'.repeat(20_000);
    const message = refusal(() => checkedBody('PromotionRequest', { toStage: huge, services: Array(5000).fill(huge) }));
    expect(message.length).toBeLessThan(200);
    expect(message).not.toContain('x'.repeat(100));
  });
});
