import type { PermissionApi } from '@backstage/plugin-permission-react';

type DefinitiveDecision = Exclude<
  Awaited<ReturnType<PermissionApi['authorize']>>,
  { conditions: unknown }
>;
type Decision = DefinitiveDecision['result'];

// The values of AuthorizeResult, without depending on permission-common here.
export const ALLOW = 'ALLOW' as Decision;
export const DENY = 'DENY' as Decision;

/**
 * A fake permission API that decides by permission name, e.g.
 * `{ 'promotions.promotion.approve': DENY }`; anything unnamed is allowed.
 *
 * usePermission caches decisions per permission and resourceRef for the whole
 * test file, so tests that expect different decisions must use different
 * Products.
 */
export function fakePermissionApi(decisions: Record<string, Decision> = {}) {
  const authorize = jest.fn(
    async (request: Parameters<PermissionApi['authorize']>[0]): Promise<DefinitiveDecision> => ({
      result: decisions[request.permission.name] ?? ALLOW,
    }),
  );
  return { authorize };
}
