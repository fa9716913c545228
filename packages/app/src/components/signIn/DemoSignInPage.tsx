import { useState } from 'react';
import {
  Content,
  Header,
  InfoCard,
  Page,
  ProxiedSignInPage,
} from '@backstage/core-components';
import { SignInPageProps } from '@backstage/core-plugin-api';
import { Button, Grid, Typography } from '@material-ui/core';

const STORAGE_KEY = 'refplat-demo-user';

/** Mirrors `auth.providers.demo.users` in app-config.yaml. */
const DEMO_USERS = [
  {
    name: 'alice',
    title: 'Alice',
    role: 'Release-approver: may approve promotions into prod.',
  },
  {
    name: 'bob',
    title: 'Bob',
    role: 'Developer on team alpha: may request and hold shop\'s promotions, not approve prod.',
  },
  {
    name: 'carol',
    title: 'Carol',
    role: 'Release-approver: approves what Alice requested (nobody approves their own).',
  },
  {
    name: 'erin',
    title: 'Erin',
    role: "The shop's release captain: may approve shop's promotions (its System names shop-release), no other Product's.",
  },
  {
    name: 'dave',
    title: 'Dave',
    role: 'Incident commander: while an incident is open, promotions into prod under the incident gate in approval mode also wait for him.',
  },
];

export function forgetDemoUser() {
  window.localStorage.removeItem(STORAGE_KEY);
}

/**
 * Local demo sign-in: choose a person, then sign in through the backend's
 * `demo` proxy provider as that catalog User. Remembers the choice so a
 * reload keeps the session.
 */
export const DemoSignInPage = (props: SignInPageProps) => {
  const [user, setUser] = useState<string | null>(() =>
    window.localStorage.getItem(STORAGE_KEY),
  );

  if (user) {
    return (
      <ProxiedSignInPage
        {...props}
        provider="demo"
        headers={{ 'x-demo-user': user }}
      />
    );
  }

  return (
    <Page themeId="home">
      <Header title="RefPlat Promotions" subtitle="Local demo sign-in" />
      <Content>
        <Grid container spacing={3}>
          {DEMO_USERS.map(demoUser => (
            <Grid item xs={12} md={4} key={demoUser.name}>
              <InfoCard title={demoUser.title}>
                <Typography variant="body1" paragraph>
                  {demoUser.role}
                </Typography>
                <Button
                  variant="contained"
                  color="primary"
                  onClick={() => {
                    window.localStorage.setItem(STORAGE_KEY, demoUser.name);
                    setUser(demoUser.name);
                  }}
                >
                  Sign in as {demoUser.title}
                </Button>
              </InfoCard>
            </Grid>
          ))}
        </Grid>
      </Content>
    </Page>
  );
};
