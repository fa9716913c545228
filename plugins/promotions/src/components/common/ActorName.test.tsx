import { screen } from '@testing-library/react';
import { renderInTestApp } from '@backstage/test-utils';
import { entityRouteRef } from '@backstage/plugin-catalog-react';
import { ActorName } from './ActorName';

describe('ActorName', () => {
  it('shows a person by their catalog presentation, not their ref', async () => {
    await renderInTestApp(
      <span data-testid="name">
        <ActorName actor="user:default/bob" />
      </span>,
    );
    expect(screen.getByTestId('name')).toHaveTextContent(/^bob$/);
  });

  it("links a group to its catalog page when asked, by name", async () => {
    await renderInTestApp(<ActorName actor="group:default/release-approvers" link />, {
      mountedRoutes: { '/catalog/:namespace/:kind/:name': entityRouteRef },
    });
    expect(screen.getByRole('link', { name: 'release-approvers' })).toHaveAttribute(
      'href',
      '/catalog/default/group/release-approvers',
    );
  });

  it.each([
    ['plugin:promotions/auto-promoter', 'Auto-promoter'],
    ['promotions-gate', 'Gate'],
  ])('calls the worker %s %s', async (actor, name) => {
    await renderInTestApp(
      <span data-testid="name">
        <ActorName actor={actor} />
      </span>,
    );
    expect(screen.getByTestId('name')).toHaveTextContent(new RegExp(`^${name}$`));
  });
});
