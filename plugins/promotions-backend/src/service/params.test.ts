import { nameFromParams, productFromParams, promotionIdFrom } from './params';

describe("an action's names and ids, checked as openapi.yaml checks a route's path", () => {
  it.each([
    [{ team: 'alpha', product: 'shop' }, { team: 'alpha', product: 'shop' }],
    [{ team: 'Alpha', product: 'shop' }, /Invalid team name "Alpha"/],
    [{ team: 'alpha', product: '../x' }, /Invalid product name/],
  ])('productFromParams(%j)', (params, expected) => {
    if (expected instanceof RegExp) expect(() => productFromParams(params)).toThrow(expected);
    else expect(productFromParams(params)).toEqual(expected);
  });

  it.each([
    ['prod', true],
    ['Prod', false],
    ['', false],
  ])('nameFromParams takes the stage %j: %s', (stage, taken) => {
    const check = () => nameFromParams({ stage }, 'stage');
    if (taken) expect(check()).toBe(stage);
    else expect(check).toThrow(/Invalid stage name/);
  });

  it.each([
    ['7c9e6679-7425-40de-944b-e07fc1f90ae7', true],
    ['not-an-id', false],
    ['7c9e6679-7425-40de-944b-e07fc1f90ae7/../x', false],
  ])('promotionIdFrom takes %j: %s', (id, taken) => {
    if (taken) expect(promotionIdFrom(id)).toBe(id);
    else expect(() => promotionIdFrom(id)).toThrow('Invalid promotion id');
  });
});
