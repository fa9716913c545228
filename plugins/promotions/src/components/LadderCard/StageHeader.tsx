import {
  Chip,
  Link,
  TableCell,
  Tooltip,
  Typography,
  makeStyles,
} from '@material-ui/core';
import { Ladder, LadderStage, formatSeconds, releaseApprovers } from '@refplat/plugin-promotions-common';
import { HealthChip } from '../common/HealthChip';
import { StageHistoryButton } from '../StageHistory/StageHistoryButton';
import { StuckChip } from '../Diagnosis/StuckChip';
import { WhatChangedButton } from '../WhatChanged/WhatChangedButton';
import { FreezeNotice } from './FreezeNotice';
import { IncidentNotice } from './IncidentNotice';
import { StageRung } from './StageRung';

const useStyles = makeStyles(theme => ({
  stageHead: {
    verticalAlign: 'top',
    padding: theme.spacing(1, 1, 1, 1.5),
    wordBreak: 'normal',
  },
  title: {
    display: 'flex',
    alignItems: 'center',
    flexWrap: 'wrap',
    gap: theme.spacing(0.5),
  },
  name: { marginRight: theme.spacing(0.5) },
  links: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', marginLeft: theme.spacing(-0.5) },
  // As a LinkButton's text: the stage's links read as one row.
  external: { padding: theme.spacing(0, 0.5), fontSize: theme.typography.button.fontSize },
}));

/**
 * A rung: its name, health, whether something is stuck, approval rule, soak
 * time, the freeze window on now, what it offers (Promote, the promotion in flight), its history and
 * what changed from the stage below.
 */
export const StageHeader = (props: {
  ladder: Ladder;
  stage: LadderStage;
  /** Promote as an icon, for a card too narrow for its text. */
  compact?: boolean;
  /** Called once a promotion or rollback was requested. */
  onChanged: () => void;
}) => {
  const classes = useStyles();
  const { ladder, stage } = props;
  const index = ladder.stages.findIndex(
    candidate => candidate.name === stage.name,
  );
  const below = index > 0 ? ladder.stages[index - 1] : undefined;
  const waiting = ladder.services.some(
    service => stage.services[service]?.waitingToClimb,
  );
  return (
    <TableCell
      className={classes.stageHead}
      data-testid={`stage-${stage.name}`}
    >
      <div className={classes.title}>
        <Typography
          variant="subtitle1"
          component="span"
          className={classes.name}
        >
          <strong>{stage.name}</strong>
        </Typography>
        <HealthChip verdict={stage.verdict} reasons={stage.reasons} />
        <StuckChip ladder={ladder} stage={stage} />
        {stage.requiresApproval && (
          <Tooltip title={`Promotions into this stage need ${releaseApprovers(stage.approvalQuorum)}`}>
            <Chip size="small" variant="outlined" label="approval" />
          </Tooltip>
        )}
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
      </div>
      {stage.freeze && <FreezeNotice stage={stage.name} freeze={stage.freeze} />}
      {stage.incidentGate && <IncidentNotice stage={stage.name} gate={stage.incidentGate} />}
      {(stage.release.error || stage.environment.error) && (
        <Typography variant="caption" color="error" display="block">
          {stage.release.error ?? stage.environment.error}
        </Typography>
      )}
      <StageRung
        ladder={ladder}
        stage={stage}
        compact={props.compact}
        onChanged={props.onChanged}
      />
      <div className={classes.links}>
        <StageHistoryButton
          product={ladder}
          stage={stage.name}
          current={stage}
          bottomRung={ladder.stages[0]?.name === stage.name}
          onRolledBack={props.onChanged}
        />
        {below && waiting && (
          <WhatChangedButton
            product={ladder}
            fromStage={below.name}
            toStage={stage.name}
          />
        )}
        {stage.application?.url && (
          <Tooltip title={`The Application ${stage.application.name} in ArgoCD`}>
            {/* Material UI's link, not Backstage's: its hidden "Opens in a new window" would not match the name. */}
            <Link
              href={stage.application.url}
              target="_blank"
              rel="noopener noreferrer"
              className={classes.external}
              aria-label={`ArgoCD of ${stage.name}`}
              data-testid={`argocd-${stage.name}`}
            >
              ArgoCD
            </Link>
          </Tooltip>
        )}
      </div>
    </TableCell>
  );
};
