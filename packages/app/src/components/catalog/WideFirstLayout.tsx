import { Grid } from '@material-ui/core';
import {
  EntityOrphanWarning,
  EntityProcessingErrorsPanel,
  EntityRelationWarning,
  EntitySwitch,
  hasCatalogProcessingErrors,
  hasRelationWarnings,
  isOrphan,
} from '@backstage/plugin-catalog';
import { EntityContentLayoutProps } from '@backstage/plugin-catalog-react/alpha';

/**
 * An Overview layout: the content cards at full width, in order, then the
 * info cards (About, links, labels) two to a row. The catalog's warnings
 * come first, as in its default layout.
 */
export function WideFirstLayout({ cards }: EntityContentLayoutProps) {
  const info = cards.filter(card => card.type === 'info');
  const content = cards.filter(card => card.type !== 'info');
  return (
    <Grid container spacing={3} alignItems="stretch">
      <EntitySwitch>
        <EntitySwitch.Case if={isOrphan}>
          <Grid item xs={12}>
            <EntityOrphanWarning />
          </Grid>
        </EntitySwitch.Case>
      </EntitySwitch>
      <EntitySwitch>
        <EntitySwitch.Case if={hasRelationWarnings}>
          <Grid item xs={12}>
            <EntityRelationWarning />
          </Grid>
        </EntitySwitch.Case>
      </EntitySwitch>
      <EntitySwitch>
        <EntitySwitch.Case if={hasCatalogProcessingErrors}>
          <Grid item xs={12}>
            <EntityProcessingErrorsPanel />
          </Grid>
        </EntitySwitch.Case>
      </EntitySwitch>
      {content.map((card, index) => (
        <Grid item xs={12} key={`content-${index}`}>
          {card.element}
        </Grid>
      ))}
      {info.map((card, index) => (
        <Grid item xs={12} md={6} key={`info-${index}`}>
          {card.element}
        </Grid>
      ))}
    </Grid>
  );
}
