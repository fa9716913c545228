import { InputError } from '@backstage/errors';
import { MAX_JSON_DEPTH, isNestedDeeperThan } from './jsonBody';
import {
  MAX_HOLD_REASON_CHARS,
  holdBody,
  parseBody,
  promotionRequestBody,
  rollbackBody,
} from './requestBodies';

const DIGEST = `sha256:${'a'.repeat(64)}`;

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('parseBody', () => {
  it('types the bodies the routes take', () => {
    expect(parseBody(promotionRequestBody, { toStage: 'test', services: ['cart'] }, '')).toEqual({
      toStage: 'test',
      services: ['cart'],
    });
    expect(parseBody(rollbackBody, { stage: 'prod', services: { cart: DIGEST } }, '')).toEqual({
      stage: 'prod',
      services: { cart: DIGEST },
    });
    expect(
      parseBody(holdBody, { stage: 'uat', service: 'cart', reason: `  ${'x'.repeat(900)} ` }, ''),
    ).toEqual({ stage: 'uat', service: 'cart', reason: 'x'.repeat(MAX_HOLD_REASON_CHARS) });
  });

  it.each([
    ['a stage not written as a name', promotionRequestBody, { toStage: 'Prod' }, /toStage must be a stage name/],
    ['a stage in a list', promotionRequestBody, { toStage: ['test'] }, /toStage must be a stage name/],
    ['services as text', promotionRequestBody, { toStage: 'test', services: 'cart' }, /non-empty list of service names/],
    ['no services', promotionRequestBody, { toStage: 'test', services: [] }, /non-empty list of service names/],
    ['a number for a service', promotionRequestBody, { toStage: 'test', services: ['cart', 7] }, /each service must be a name .* \(at services\[1\]\)/],
    ['a list for a body', promotionRequestBody, [], /Expected object, received array/],
    ['a tag for a digest', rollbackBody, { stage: 'prod', services: { cart: 'latest' } }, /each digest must be sha256.* \(at services\.cart\)/],
    ['a rollback of nothing', rollbackBody, { stage: 'prod', services: {} }, /at least one service/],
    ['a list of services to roll back', rollbackBody, { stage: 'prod', services: ['cart'] }, /map each service to the digest/],
    ['a blank reason', holdBody, { stage: 'uat', service: 'cart', reason: '   ' }, /needs a reason/],
    ['an object for a reason', holdBody, { stage: 'uat', service: 'cart', reason: { text: 'x' } }, /reason must be text/],
  ])('refuses %s', (_name, schema, body, message) => {
    expect(refusal(() => parseBody(schema as typeof holdBody, body, '{...}'))).toMatch(message);
  });

  it('keeps the message short whatever the body holds', () => {
    const huge = 'x'.repeat(20_000);
    const messages = [
      refusal(() => parseBody(rollbackBody, { stage: huge, services: { [huge]: huge, [`${huge}y`]: 1 } }, '{...}')),
      refusal(() => parseBody(promotionRequestBody, { toStage: huge, services: Array(5000).fill(huge) }, '{...}')),
    ];
    for (const message of messages) {
      expect(message.length).toBeLessThan(600);
      expect(message).not.toContain('x'.repeat(100));
    }
  });
});

describe('isNestedDeeperThan', () => {
  const nested = (depth: number) => {
    let value: unknown = 'leaf';
    for (let i = 0; i < depth; i++) value = [value];
    return value;
  };

  it.each([
    [{ services: { cart: DIGEST } }, false],
    [nested(MAX_JSON_DEPTH), false],
    [nested(MAX_JSON_DEPTH + 1), true],
    [{ a: { b: { c: { d: { e: { f: { g: { h: { i: 1 } } } } } } } } }, true],
    ['text', false],
    [null, false],
  ])('%#: %p', (value, deeper) => {
    expect(isNestedDeeperThan(value, MAX_JSON_DEPTH)).toBe(deeper);
  });

  it('walks a value nested 100,000 deep without exhausting the stack', () => {
    expect(isNestedDeeperThan(nested(100_000), MAX_JSON_DEPTH)).toBe(true);
  });
});
