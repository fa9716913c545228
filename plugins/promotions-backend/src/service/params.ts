import { InputError } from '@backstage/errors';
import { ProductRef, isValidName } from '@refplat/plugin-promotions-common';
import { boundedQuote } from './boundedQuote';

/** A name from the route (`team`, `stage`, ...), or 400 naming the bad part. */
export function nameFromParams(params: Record<string, string>, part: string): string {
  const value = params[part];
  if (!isValidName(value)) {
    throw new InputError(
      `Invalid ${part} name ${boundedQuote(value)}: use lowercase letters, digits and '-'`,
    );
  }
  return value;
}

/** `{team, product}` from route params, or 400 naming the bad part. */
export function productFromParams(params: Record<string, string>): ProductRef {
  return { team: nameFromParams(params, 'team'), product: nameFromParams(params, 'product') };
}
