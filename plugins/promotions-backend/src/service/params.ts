import { InputError } from '@backstage/errors';
import { ProductRef, isValidName } from '@refplat/plugin-promotions-common';

/** `{team, product}` from route params, or 400 naming the bad part. */
export function productFromParams(params: Record<string, string>): ProductRef {
  const { team, product } = params;
  if (!isValidName(team)) {
    throw new InputError(
      `Invalid team name ${JSON.stringify(team)}: use lowercase letters, digits and '-'`,
    );
  }
  if (!isValidName(product)) {
    throw new InputError(
      `Invalid product name ${JSON.stringify(product)}: use lowercase letters, digits and '-'`,
    );
  }
  return { team, product };
}
