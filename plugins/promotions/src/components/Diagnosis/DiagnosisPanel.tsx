import { Typography } from '@material-ui/core';
import { LadderServiceCell } from '@refplat/plugin-promotions-common';
import { InfoDialog } from '../common/InfoDialog';
import { useSectionStyles } from '../common/styles';
import { DiagnosisStateChip } from './DiagnosisStateChip';
import { decidingHop, HopReadingLine } from './HopReadingLine';
import { WhereToLook } from './WhereToLook';

/**
 * "Why is my deployment not there yet?" for one service in one stage: where it
 * stands, the last step that completed, the likely cause, where to look and
 * the cell's health reasons.
 */
export const DiagnosisPanel = (props: {
  stage: string;
  service: string;
  cell: LadderServiceCell;
  onClose: () => void;
}) => {
  const classes = useSectionStyles();
  const { cell, stage, service } = props;
  const diagnosis = cell.diagnosis;
  const hop = decidingHop(diagnosis);
  return (
    <InfoDialog
      testId="diagnosis-panel"
      title={`${service} in ${stage}`}
      onClose={props.onClose}
    >
      {diagnosis ? (
        <>
          <Typography component="div">
            State: <DiagnosisStateChip state={diagnosis.state} testId="diagnosis-state" />
          </Typography>
          <Typography className={classes.section} data-testid="diagnosis-last-step">
            Last completed step: {diagnosis.lastCompletedStep}
          </Typography>
          <Typography className={`${classes.section} ${classes.breakAnywhere}`} data-testid="diagnosis-likely-cause">
            Likely cause: {diagnosis.likelyCause}
          </Typography>
          {hop && (
            <div className={classes.section}>
              <HopReadingLine reading={hop} />
            </div>
          )}
          {diagnosis.whereToLook.length > 0 && (
            <div className={classes.section}>
              <Typography variant="subtitle2">Where to look</Typography>
              <WhereToLook links={diagnosis.whereToLook} />
            </div>
          )}
        </>
      ) : (
        <Typography>No diagnosis for {service} in {stage}.</Typography>
      )}
      <div className={classes.section} data-testid="diagnosis-health-reasons">
        <Typography variant="subtitle2">Health</Typography>
        {cell.reasons.length > 0 ? (
          <ul>
            {cell.reasons.map(reason => (
              <li key={reason}>
                <Typography variant="body2">{reason}</Typography>
              </li>
            ))}
          </ul>
        ) : (
          <Typography variant="body2">No health problems reported.</Typography>
        )}
      </div>
    </InfoDialog>
  );
};
