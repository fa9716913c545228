import { TextField, Typography, makeStyles } from '@material-ui/core';
import { NamedGuardVerdict } from '@refplat/plugin-promotions-common';

const useStyles = makeStyles(theme => ({
  root: { margin: theme.spacing(1, 0, 2) },
}));

/** "Override freeze" when the freeze window blocks, else the guards' blocks in general. */
export function overrideTitle(blocks: NamedGuardVerdict[]): string {
  return blocks.some(block => block.guard === 'freeze') ? 'Override freeze' : 'Override policy';
}

/**
 * What blocks a promotion a release-approver may still request, and the
 * reason they must give for overriding it (it goes onto the PR and into the
 * audit trail).
 */
export const OverrideSection = (props: {
  blocks: NamedGuardVerdict[];
  reason: string;
  onReasonChange: (reason: string) => void;
}) => {
  const classes = useStyles();
  return (
    <div className={classes.root} data-testid="promotion-override">
      <Typography variant="subtitle2">{overrideTitle(props.blocks)}</Typography>
      {props.blocks.map(block => (
        <Typography key={block.guard} variant="body2" color="error">
          {block.guard}: {block.reason}
        </Typography>
      ))}
      <TextField
        // The id ties the label to the text box: without it, the box has no accessible name.
        id="promotion-override-reason"
        label="Reason for the override"
        helperText="Required. It is commented on the PR and recorded in the audit trail."
        required
        fullWidth
        multiline
        margin="dense"
        value={props.reason}
        onChange={event => props.onReasonChange(event.target.value)}
        inputProps={{ 'data-testid': 'promotion-override-reason', maxLength: 1000 }}
      />
    </div>
  );
};
