import { screen } from '@testing-library/react';
import { Entity } from '@backstage/catalog-model';
import { EntityProvider } from '@backstage/plugin-catalog-react';
import { renderInTestApp } from '@backstage/test-utils';
import { WideFirstLayout } from './WideFirstLayout';

const shop: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'System',
  metadata: { name: 'shop', namespace: 'default' },
  spec: { owner: 'group:default/alpha' },
};

/** The Grid item a card sits in: its breakpoint classes tell its width. */
function gridItemOf(text: string): HTMLElement {
  return screen.getByText(text).parentElement!;
}

describe('WideFirstLayout', () => {
  it('puts content cards at full width, in order, then info cards two to a row', async () => {
    await renderInTestApp(
      <EntityProvider entity={shop}>
        <WideFirstLayout
          cards={[
            { type: 'info', element: <div>About</div> },
            { type: 'content', element: <div>Promotion ladder</div> },
            { element: <div>Has components</div> },
          ]}
        />
      </EntityProvider>,
    );

    const order = ['Promotion ladder', 'Has components', 'About'].map(gridItemOf);
    expect(order[0].compareDocumentPosition(order[1])).toBe(Node.DOCUMENT_POSITION_FOLLOWING);
    expect(order[1].compareDocumentPosition(order[2])).toBe(Node.DOCUMENT_POSITION_FOLLOWING);
    for (const wide of order.slice(0, 2)) {
      expect(wide.className).toMatch(/grid-xs-12/);
      expect(wide.className).not.toMatch(/grid-md-6/);
    }
    expect(order[2].className).toMatch(/grid-md-6/);
  });
});
