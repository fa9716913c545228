import {
  coreServices,
  createBackendModule,
} from '@backstage/backend-plugin-api';
import { AuthenticationError } from '@backstage/errors';
import {
  authProvidersExtensionPoint,
  createProxyAuthenticator,
  createProxyAuthProviderFactory,
} from '@backstage/plugin-auth-node';

/** The header the demo sign-in page sends with the chosen user name. */
export const DEMO_USER_HEADER = 'x-demo-user';

/**
 * Why the demo provider may not run here, or undefined when it may: only
 * where `auth.environment` says `development` and Node does not run in
 * production. Anything else would let whoever sends the header be anyone.
 */
export function demoSignInRefusal(environment: {
  authEnvironment?: string;
  nodeEnv?: string;
}): string | undefined {
  if (environment.nodeEnv === 'production') {
    return 'NODE_ENV is production';
  }
  if (environment.authEnvironment !== 'development') {
    return `auth.environment is ${environment.authEnvironment ?? 'not set'}, not development`;
  }
  return undefined;
}

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

/**
 * Registers the demo provider when `auth.providers.demo` is configured and
 * the environment is development. Anywhere else it is left out, with a
 * warning: a sign-in anyone can forge never serves a production backend.
 */
export const demoAuthProviderModule = createBackendModule({
  pluginId: 'auth',
  moduleId: 'demo-provider',
  register(reg) {
    reg.registerInit({
      deps: {
        providers: authProvidersExtensionPoint,
        config: coreServices.rootConfig,
        logger: coreServices.logger,
      },
      async init({ providers, config, logger }) {
        if (!config.has('auth.providers.demo')) {
          logger.info('Demo sign-in is not configured (auth.providers.demo); not registering it');
          return;
        }
        const refusal = demoSignInRefusal({
          authEnvironment: config.getOptionalString('auth.environment'),
          nodeEnv: process.env.NODE_ENV,
        });
        if (refusal) {
          // Not registered rather than failing the start: the base config carries the demo
          // sign-in, and a production config over it must start with its own provider only.
          logger.warn(
            `Demo sign-in (auth.providers.demo) is not registered: ${refusal}. It signs in ` +
              'whoever names a user in a request header, so it only runs in development.',
          );
          return;
        }
        logger.warn('Demo sign-in is enabled: anyone who can reach this backend can sign in as a demo user');
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
