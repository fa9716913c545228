import { mockCredentials } from '@backstage/backend-test-utils';
import request from 'supertest';
import type { startPromotionsBackend } from './testBackend';

type Server = Awaited<ReturnType<typeof startPromotionsBackend>>;

/** The Authorization header of a demo user (`alice`, `bob`, …), as the mock auth reads it. */
export const asUser = (name: string) => mockCredentials.user.header(`user:default/${name}`);

/**
 * Invokes one of the plugin's registered actions over HTTP as `user`, as the
 * actions service (and so an MCP server) does; needs the real actions registry.
 */
export function invokeAction(server: Server, action: string, user: string, input: object) {
  return request(server)
    .post(`/api/promotions/.backstage/actions/v1/actions/promotions:${action}/invoke`)
    .set('Authorization', asUser(user))
    .send(input);
}
