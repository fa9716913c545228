import { List, ListItem, ListItemText } from '@material-ui/core';
import { Link } from '@backstage/core-components';
import { DiagnosisLink } from '@refplat/plugin-promotions-common';

/** The places to look, most useful first; links where they have a URL. */
export const WhereToLook = (props: { links: DiagnosisLink[] }) => (
  <List dense disablePadding data-testid="diagnosis-where-to-look">
    {props.links.map((link, index) => (
      <ListItem key={`${index}-${link.label}`} disableGutters>
        <ListItemText
          primary={link.url ? <Link to={link.url}>{link.label}</Link> : link.label}
        />
      </ListItem>
    ))}
  </List>
);
