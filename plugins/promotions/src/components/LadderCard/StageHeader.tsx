import { Chip, TableCell, Tooltip, Typography, makeStyles } from '@material-ui/core';
import { Ladder, LadderStage, formatSeconds } from '@refplat/plugin-promotions-common';
import { HealthChip } from '../common/HealthChip';
import { RequestPromotionButton } from '../RequestPromotion/RequestPromotionButton';
import { StageHistoryButton } from '../StageHistory/StageHistoryButton';
import { StuckChip } from '../Diagnosis/StuckChip';
import { WhatChangedButton } from '../WhatChanged/WhatChangedButton';

const useStyles = makeStyles(theme => ({
  stageHead: { whiteSpace: 'nowrap', verticalAlign: 'top' },
  title: { display: 'flex', alignItems: 'center', gap: theme.spacing(0.5) },
  actions: { marginTop: theme.spacing(1) },
}));

/**
 * A rung: its name, health, whether something is stuck, approval rule, soak
 * time, history, what changed from the stage below and Request Promotion.
 */
export const StageHeader = (props: {
  ladder: Ladder;
  stage: LadderStage;
  /** Called once a promotion or rollback was requested. */
  onChanged: () => void;
}) => {
  const classes = useStyles();
  const { ladder, stage } = props;
  const index = ladder.stages.findIndex(candidate => candidate.name === stage.name);
  const below = index > 0 ? ladder.stages[index - 1] : undefined;
  return (
    <TableCell className={classes.stageHead} data-testid={`stage-${stage.name}`}>
      <div className={classes.title}>
        <Typography variant="subtitle2">{stage.name}</Typography>
        <StageHistoryButton
          product={ladder}
          stage={stage.name}
          current={stage}
          onRolledBack={props.onChanged}
        />
        {below && (
          <WhatChangedButton product={ladder} fromStage={below.name} toStage={stage.name} />
        )}
      </div>
      <HealthChip verdict={stage.verdict} reasons={stage.reasons} />{' '}
      <StuckChip ladder={ladder} stage={stage} />{' '}
      {stage.requiresApproval && (
        <Tooltip title="Promotions into this stage need a release-approver">
          <Chip size="small" variant="outlined" label="approval" />
        </Tooltip>
      )}{' '}
      {stage.soakSeconds !== undefined && stage.soakSeconds > 0 && (
        <Tooltip
          title={`A digest must stay healthy here for ${formatSeconds(
            stage.soakSeconds,
          )} before the auto-promoter moves it on`}
        >
          <Chip
            size="small"
            variant="outlined"
            label={`soak ${formatSeconds(stage.soakSeconds)}`}
            data-testid={`soak-setting-${stage.name}`}
          />
        </Tooltip>
      )}
      {(stage.release.error || stage.environment.error) && (
        <Typography variant="caption" color="error" display="block">
          {stage.release.error ?? stage.environment.error}
        </Typography>
      )}
      <div className={classes.actions}>
        <RequestPromotionButton
          ladder={ladder}
          stage={stage}
          onRequested={props.onChanged}
        />
      </div>
    </TableCell>
  );
};
