import { screen } from '@testing-library/react';
import { configApiRef, githubAuthApiRef } from '@backstage/core-plugin-api';
import { TestApiProvider, mockApis, renderInTestApp } from '@backstage/test-utils';
import { AppSignInPage } from './AppSignInPage';

async function renderWith(auth: object) {
  await renderInTestApp(
    <TestApiProvider
      apis={[
        [configApiRef, mockApis.config({ data: { app: { title: 'RefPlat Promotions' }, auth } })],
        [githubAuthApiRef, { getBackstageIdentity: async () => undefined }],
      ]}
    >
      <AppSignInPage onSignInSuccess={() => undefined} />
    </TestApiProvider>,
  );
}

describe('AppSignInPage', () => {
  it.each([[{}], [{ environment: 'development' }]])('offers the demo people with auth %p', async auth => {
    await renderWith(auth);
    // The README's people: the catalog's Users, each with a button.
    for (const person of ['Alice', 'Bob', 'Carol', 'Erin', 'Dave']) {
      expect(screen.getByRole('button', { name: `Sign in as ${person}` })).toBeInTheDocument();
    }
  });

  it('offers GitHub sign-in in production', async () => {
    await renderWith({ environment: 'production' });
    expect(await screen.findByText('Sign in with your GitHub account')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Sign in as/ })).not.toBeInTheDocument();
  });
});
