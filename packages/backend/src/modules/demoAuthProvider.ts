import { createBackendModule } from '@backstage/backend-plugin-api';
import { AuthenticationError } from '@backstage/errors';
import {
  authProvidersExtensionPoint,
  createProxyAuthenticator,
  createProxyAuthProviderFactory,
} from '@backstage/plugin-auth-node';

/** The header the demo sign-in page sends with the chosen user name. */
export const DEMO_USER_HEADER = 'x-demo-user';

/**
 * Local demo sign-in: the user picks one of `auth.providers.demo.users` and
 * is signed in as that catalog User, with the catalog's group memberships.
 * It trusts a request header, so it exists for demos and tests only; a real
 * installation uses a real provider (GitHub, OIDC, ...).
 */
const demoAuthenticator = createProxyAuthenticator({
  defaultProfileTransform: async (result: { userName: string }) => ({
    profile: { displayName: result.userName },
  }),
  initialize({ config }) {
    return { users: config.getStringArray('users') };
  },
  async authenticate({ req }, { users }) {
    const userName = req.header(DEMO_USER_HEADER);
    if (!userName || !users.includes(userName)) {
      throw new AuthenticationError(
        `Demo sign-in needs the ${DEMO_USER_HEADER} header naming one of: ${users.join(', ')}`,
      );
    }
    return { result: { userName } };
  },
});

export const demoAuthProviderModule = createBackendModule({
  pluginId: 'auth',
  moduleId: 'demo-provider',
  register(reg) {
    reg.registerInit({
      deps: { providers: authProvidersExtensionPoint },
      async init({ providers }) {
        providers.registerProvider({
          providerId: 'demo',
          factory: createProxyAuthProviderFactory({
            authenticator: demoAuthenticator,
            async signInResolver({ result }, ctx) {
              return ctx.signInWithCatalogUser({
                entityRef: { name: result.userName },
              });
            },
          }),
        });
      },
    });
  },
});
