import { coreServices, createServiceFactory } from '@backstage/backend-plugin-api';
import { AuthorizeResult } from '@backstage/plugin-permission-common';

/**
 * A permission policy under which one user may do nothing on one Product (`team/product`),
 * reading included; everyone else may do everything.
 */
export function productHiddenFrom(userEntityRef: string, product: string) {
  return createServiceFactory({
    service: coreServices.permissions,
    deps: {},
    factory: () => ({
      authorize: async (requests: Array<{ resourceRef?: string }>, options?: { credentials?: { principal?: unknown } }) => {
        const principal = options?.credentials?.principal as { userEntityRef?: string } | undefined;
        const hidden = principal?.userEntityRef === userEntityRef;
        return requests.map(r => ({
          result: hidden && r.resourceRef === product ? AuthorizeResult.DENY : AuthorizeResult.ALLOW,
        }));
      },
      authorizeConditional: async (requests: unknown[]) => requests.map(() => ({ result: AuthorizeResult.ALLOW })),
    }),
  });
}
