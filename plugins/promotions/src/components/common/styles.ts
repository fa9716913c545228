import { makeStyles } from '@material-ui/core';

/** The space above each block of a dialog's content. */
export const useSectionStyles = makeStyles(theme => ({
  section: { marginTop: theme.spacing(2) },
}));
