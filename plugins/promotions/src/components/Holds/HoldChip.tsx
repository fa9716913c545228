import { Chip } from '@material-ui/core';
import LockIcon from '@material-ui/icons/Lock';

/** "Held": the auto-promoter and promotions leave this cell alone (the reason is beside it). */
export const HoldChip = (props: { testId: string }) => (
  <Chip size="small" color="secondary" icon={<LockIcon />} label="Held" data-testid={props.testId} />
);
