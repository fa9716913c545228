import { createFrontendModule } from '@backstage/frontend-plugin-api';
import {
  NavContentBlueprint,
  SignInPageBlueprint,
} from '@backstage/plugin-app-react';
import { NavContent } from '../components/Root/NavContent';

/** The demo's person chooser (GitHub sign-in in production). */
const signInPage = SignInPageBlueprint.make({
  params: {
    loader: () =>
      import('../components/signIn/AppSignInPage').then(m => m.AppSignInPage),
  },
});

/** The nav the app plugin builds from the pages, plus a sign-out item. */
const navContent = NavContentBlueprint.make({
  params: { component: NavContent },
});

/** The app plugin's extensions this demo replaces. */
export const appModule = createFrontendModule({
  pluginId: 'app',
  extensions: [signInPage, navContent],
});
