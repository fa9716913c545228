import { useEffect, useState } from 'react';
import { SidebarItem } from '@backstage/core-components';
import { identityApiRef, useApi } from '@backstage/core-plugin-api';
import ExitToAppIcon from '@material-ui/icons/ExitToApp';
import { forgetDemoUser } from '../signIn/DemoSignInPage';

/** Shows who is signed in; a click signs out and returns to the user chooser. */
export const SignOutItem = () => {
  const identityApi = useApi(identityApiRef);
  const [name, setName] = useState<string>('');

  useEffect(() => {
    identityApi.getProfileInfo().then(profile => {
      setName(profile.displayName ?? '');
    });
  }, [identityApi]);

  return (
    <SidebarItem
      icon={ExitToAppIcon}
      text={name ? `Sign out ${name}` : 'Sign out'}
      onClick={() => {
        forgetDemoUser();
        identityApi.signOut();
      }}
    />
  );
};
