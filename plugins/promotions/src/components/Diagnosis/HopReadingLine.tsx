import { Typography, makeStyles } from '@material-ui/core';
import { CopyTextButton, Link } from '@backstage/core-components';
import { Hop, HopLook, HopReading } from '@refplat/plugin-promotions-common';
import { DateTime } from 'luxon';

/** The hop as people say it. */
export const HOP_LABELS: Record<Hop, string> = {
  registry: 'registry',
  admission: 'admission',
  scheduling: 'scheduling',
  'image-pull': 'image pull',
  probes: 'probes',
  'analysis-window': 'analysis window',
  route: 'route',
};

const useStyles = makeStyles({
  // A command or a digest is one long word: it breaks at the dialog's edge, not past it.
  breaks: { overflowWrap: 'anywhere' },
});

/** Where to look: a kubectl command to copy, a policy by name, or a link to the object in ArgoCD. */
const LookAt = ({ look }: { look: HopLook }) => {
  const classes = useStyles();
  if (look.href) return <Link to={look.href}>{look.text}</Link>;
  if (look.kind === 'kubectl') {
    return (
      <>
        <code data-testid="hop-command" className={classes.breaks}>
          {look.text}
        </code>
        <CopyTextButton text={look.text} tooltipText="Command copied" aria-label="Copy the command" />
      </>
    );
  }
  return <span>{look.text}</span>;
};

/**
 * The hop the rollout stands at, read where it happens: "Stalled at admission, seen 3 min. ago:
 * Kyverno policy …", then where to look. A waiting analysis window says it is not stuck.
 */
export const HopReadingLine = ({ reading }: { reading: HopReading }) => {
  const classes = useStyles();
  const seen = reading.seenAt ? DateTime.fromISO(reading.seenAt).toRelative() : undefined;
  const where = reading.mark === 'stalled' ? 'Stalled at' : 'Waiting at';
  return (
    <div data-testid="diagnosis-hop" data-hop={reading.hop} data-mark={reading.mark}>
      <Typography variant="body2" className={classes.breaks}>
        <strong>
          {where} {HOP_LABELS[reading.hop]}
        </strong>
        {seen && ` (seen ${seen})`}
        {reading.evidence && `: ${reading.evidence}`}
      </Typography>
      {reading.lookAt && (
        <Typography variant="body2" component="div" data-testid="hop-look">
          Look at: <LookAt look={reading.lookAt} />
        </Typography>
      )}
    </div>
  );
};
