import { Progress } from '@backstage/core-components';
import { Typography } from '@material-ui/core';
import { LadderServiceCell, ProductRef, decidingHop } from '@refplat/plugin-promotions-common';
import { useCellDetails } from '../../hooks/useCellDetails';
import { CannotReadPanel } from '../common/CannotReadPanel';
import { InfoDialog } from '../common/InfoDialog';
import { useSectionStyles } from '../common/styles';
import { DiagnosisStateChip } from './DiagnosisStateChip';
import { HopReadingLine } from './HopReadingLine';
import { WhereToLook } from './WhereToLook';

/**
 * "Why is my deployment not there yet?" for one service in one stage: where it
 * stands, the last step that completed, the likely cause, where to look and
 * the cell's health reasons. A summary ladder's cell has no diagnosis: it is read when the
 * panel opens.
 */
export const DiagnosisPanel = (props: {
  product: ProductRef;
  stage: string;
  service: string;
  cell: LadderServiceCell;
  onClose: () => void;
}) => {
  const classes = useSectionStyles();
  const { cell, stage, service } = props;
  const details = useCellDetails(props.product, stage, service, cell);
  const diagnosis = details.cell?.diagnosis;
  const hop = decidingHop(diagnosis);
  return (
    <InfoDialog
      testId="diagnosis-panel"
      title={`${service} in ${stage}`}
      onClose={props.onClose}
    >
      {details.loading && !details.cell && <Progress />}
      {details.error && <CannotReadPanel what={`the diagnosis of ${service} in ${stage}`} error={details.error} />}
      {diagnosis && (
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
      )}
      {details.cell && !diagnosis && <Typography>No diagnosis for {service} in {stage}.</Typography>}
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
