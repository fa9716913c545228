import { createFrontendModule } from '@backstage/frontend-plugin-api';
import { EntityContentLayoutBlueprint } from '@backstage/plugin-catalog-react/alpha';

/**
 * System pages lay their cards out one above the other instead of the
 * catalog's default two columns (info cards in a third-wide column beside
 * the rest): the promotion ladder needs the page's whole width for five
 * stages side by side, on a laptop too.
 */
const systemOverviewLayout = EntityContentLayoutBlueprint.make({
  name: 'system',
  params: {
    filter: { kind: 'system' },
    loader: () =>
      import('../components/catalog/WideFirstLayout').then(
        m => m.WideFirstLayout,
      ),
  },
});

/** The catalog plugin's extensions this demo adds. */
export const catalogModule = createFrontendModule({
  pluginId: 'catalog',
  extensions: [systemOverviewLayout],
});
