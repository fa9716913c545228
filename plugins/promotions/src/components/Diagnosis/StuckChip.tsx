import { useState } from 'react';
import { Chip, Tooltip, makeStyles } from '@material-ui/core';
import { Ladder, LadderStage, cellBrief } from '@refplat/plugin-promotions-common';
import { DiagnosisPanel } from './DiagnosisPanel';

const useStyles = makeStyles(theme => ({
  stuck: { backgroundColor: theme.palette.error.main, color: theme.palette.error.contrastText },
}));

/** A red "Stuck" on a stage some service is stuck in; opens the first stuck service's diagnosis. */
export const StuckChip = (props: { ladder: Ladder; stage: LadderStage }) => {
  const classes = useStyles();
  const [open, setOpen] = useState(false);
  const { ladder, stage } = props;
  if (!stage.stuck) return null;
  const service = ladder.services.find(
    candidate => {
      const cell = stage.services[candidate];
      return !!cell && cellBrief(cell).diagnosis?.state === 'stuck';
    },
  );
  const cell = service ? stage.services[service] : undefined;
  return (
    <>
      <Tooltip
        title={
          service
            ? `${service} is stuck in ${stage.name}: click for the diagnosis`
            : `A deployment is stuck in ${stage.name}`
        }
      >
        <Chip
          size="small"
          label="Stuck"
          className={classes.stuck}
          onClick={cell ? () => setOpen(true) : undefined}
          data-testid={`stuck-${stage.name}`}
        />
      </Tooltip>
      {open && service && cell && (
        <DiagnosisPanel
          product={ladder}
          stage={stage.name}
          service={service}
          cell={cell}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
};
