import { makeStyles } from '@material-ui/core';

/** The space above each block of a dialog's content. */
export const useSectionStyles = makeStyles(theme => ({
  section: { marginTop: theme.spacing(2) },
  // An image reference or a digest is one long word: it breaks at the dialog's edge, not past it.
  breakAnywhere: { overflowWrap: 'anywhere' },
}));

/**
 * Tables of words and short digests: headings whole and words never broken
 * mid-way (Backstage's theme breaks them: "Pull reques/t"), cells tight
 * enough for seven columns on a laptop.
 */
export const useCompactTableStyles = makeStyles(theme => ({
  table: {
    '& th, & td': {
      padding: theme.spacing(0.75, 1.5),
      verticalAlign: 'top',
      wordBreak: 'normal',
    },
    '& th': { whiteSpace: 'nowrap' },
  },
  nowrap: { whiteSpace: 'nowrap' },
}));
