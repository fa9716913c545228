import { nameFromParams, productFromParams, promotionIdFrom } from './params';

describe("an action's names and ids, checked as openapi.yaml checks a route's path", () => {
  it('takes a Product, a stage and a promotion id written as the routes take them', () => {
    expect(productFromParams({ team: 'alpha', product: 'shop' })).toEqual({ team: 'alpha', product: 'shop' });
    expect(nameFromParams({ stage: 'prod' }, 'stage')).toBe('prod');
    expect(promotionIdFrom('7c9e6679-7425-40de-944b-e07fc1f90ae7')).toBe('7c9e6679-7425-40de-944b-e07fc1f90ae7');
  });

  it.each([
    ['a team not written as a name', () => productFromParams({ team: 'Alpha', product: 'shop' }), /Invalid team name "Alpha"/],
    ['a product that is a path', () => productFromParams({ team: 'alpha', product: '../x' }), /Invalid product name/],
    ['a stage not written as a name', () => nameFromParams({ stage: 'Prod' }, 'stage'), /Invalid stage name "Prod"/],
    ['no stage', () => nameFromParams({ stage: '' }, 'stage'), /Invalid stage name/],
    ['an id that is no UUID', () => promotionIdFrom('not-an-id'), /Invalid promotion id/],
    ['an id with a path after it', () => promotionIdFrom('7c9e6679-7425-40de-944b-e07fc1f90ae7/../x'), /Invalid promotion id/],
  ])('refuses %s', (_name, check, message) => {
    expect(check).toThrow(message);
  });
});
