import { Chip, Typography, makeStyles } from '@material-ui/core';
import { Promotion } from '@refplat/plugin-promotions-common';

const useStyles = makeStyles(theme => ({
  root: { display: 'flex', alignItems: 'center', gap: theme.spacing(1) },
}));

/** Where a promotion goes (`test → prod`), or the stage a rollback rewinds. */
export const PromotionRoute = (props: { promotion: Promotion }) => {
  const classes = useStyles();
  const { promotion } = props;
  const rollback = promotion.kind === 'rollback';
  return (
    <div className={classes.root}>
      <Typography variant="body2" noWrap>
        {rollback ? promotion.toStage : `${promotion.fromStage} → ${promotion.toStage}`}
      </Typography>
      {rollback && (
        <Chip
          size="small"
          variant="outlined"
          color="secondary"
          label="Rollback"
          data-testid={`rollback-chip-${promotion.id}`}
        />
      )}
    </div>
  );
};
