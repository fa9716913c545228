import { Tooltip } from '@material-ui/core';
import AcUnitIcon from '@material-ui/icons/AcUnit';
import { ActiveFreeze, formatSeconds } from '@refplat/plugin-promotions-common';
import { DateTime } from 'luxon';
import { StageNotice } from './StageNotice';

/** When a freeze ends, as people read it: local time, and how long from `now`. */
export function freezeEnd(freeze: ActiveFreeze, now: Date): { local: string; endsIn: string } {
  const end = DateTime.fromISO(freeze.end);
  return {
    local: end.toLocaleString(DateTime.DATETIME_MED_WITH_WEEKDAY),
    endsIn: formatSeconds(end.diff(DateTime.fromJSDate(now)).as('seconds')),
  };
}

/**
 * "Frozen by holidays until Tue, Dec 1, 2:00 PM (ends in 2h): Holiday freeze":
 * the freeze window on now for the stage, so nobody is surprised by a 409.
 */
export const FreezeNotice = (props: { stage: string; freeze: ActiveFreeze }) => {
  const { freeze } = props;
  const end = freezeEnd(freeze, new Date());
  return (
    <Tooltip title={`Promotions into ${props.stage} are refused until ${end.local}; a release-approver may override`}>
      <StageNotice tone="info" icon={AcUnitIcon} testId={`freeze-${props.stage}`}>
        Frozen by <strong>{freeze.name}</strong> until {end.local} (ends in {end.endsIn}): {freeze.reason}
      </StageNotice>
    </Tooltip>
  );
};
