import { InputError } from '@backstage/errors';
import { ProductRef, isValidName } from '@refplat/plugin-promotions-common';
import { spec } from '../schema/openapi/generated';
import { boundedQuote } from './boundedQuote';

// What a registered action names, checked as openapi.yaml checks a route's path (the router's
// validator does that for HTTP): the operations take it as checked.

/** A name an action was given (`team`, `stage`, ...), or 400 naming the bad part. */
export function nameFromParams(params: Record<string, string>, part: string): string {
  const value = params[part];
  if (!isValidName(value)) {
    throw new InputError(
      `Invalid ${part} name ${boundedQuote(value)}: use lowercase letters, digits and '-'`,
    );
  }
  return value;
}

/** `{team, product}` an action was given, or 400 naming the bad part. */
export function productFromParams(params: Record<string, string>): ProductRef {
  return { team: nameFromParams(params, 'team'), product: nameFromParams(params, 'product') };
}

const PROMOTION_ID = new RegExp(spec.components.parameters.id.schema.pattern);

/** A promotion id an action was given, or 400. */
export function promotionIdFrom(id: string): string {
  if (!PROMOTION_ID.test(id)) throw new InputError('Invalid promotion id');
  return id;
}
