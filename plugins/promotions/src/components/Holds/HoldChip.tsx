import { Chip, Tooltip } from '@material-ui/core';
import LockIcon from '@material-ui/icons/Lock';
import { Hold } from '@refplat/plugin-promotions-common';

export function describeHold(hold: Hold): string {
  return `${hold.reason} — held by ${hold.placedBy} since ${new Date(
    hold.placedAt,
  ).toLocaleString()}`;
}

/** "Held": the auto-promoter and promotions leave this cell alone. */
export const HoldChip = (props: { hold: Hold; testId: string }) => (
  <Tooltip title={describeHold(props.hold)}>
    <Chip
      size="small"
      color="secondary"
      icon={<LockIcon />}
      label="Held"
      data-testid={props.testId}
    />
  </Tooltip>
);
