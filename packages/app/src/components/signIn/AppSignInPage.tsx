import { SignInPage } from '@backstage/core-components';
import {
  SignInPageProps,
  configApiRef,
  githubAuthApiRef,
  useApi,
} from '@backstage/core-plugin-api';
import { DemoSignInPage } from './DemoSignInPage';

const GITHUB_PROVIDER = {
  id: 'github-auth-provider',
  title: 'GitHub',
  message: 'Sign in with your GitHub account',
  apiRef: githubAuthApiRef,
};

/**
 * The demo's person picker where the backend may run the demo provider
 * (`auth.environment` development, or unset as in the base config), GitHub
 * sign-in anywhere else (app-config.production.yaml sets production).
 */
export const AppSignInPage = (props: SignInPageProps) => {
  const environment = useApi(configApiRef).getOptionalString('auth.environment');
  if (environment === undefined || environment === 'development') {
    return <DemoSignInPage {...props} />;
  }
  return <SignInPage {...props} auto provider={GITHUB_PROVIDER} />;
};
