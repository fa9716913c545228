import { screen } from '@testing-library/react';
import { renderInTestApp } from '@backstage/test-utils';
import { ActorName, machineActorName } from './ActorName';

describe('ActorName', () => {
  it('shows a person by their catalog presentation, not their ref', async () => {
    await renderInTestApp(
      <span data-testid="name">
        <ActorName actor="user:default/bob" />
      </span>,
    );
    expect(screen.getByTestId('name')).toHaveTextContent(/^bob$/);
  });

  it.each([
    ['plugin:promotions/auto-promoter', 'Auto-promoter'],
    ['promotions-gate', 'Gate'],
    ['promotions-reconciler', 'Reconciler'],
  ])('calls the worker %s %s', (actor, name) => {
    expect(machineActorName(actor)).toBe(name);
  });
});
