import { Tooltip, Typography, makeStyles } from '@material-ui/core';
import VerifiedUserIcon from '@material-ui/icons/VerifiedUser';
import ErrorIcon from '@material-ui/icons/Error';
import HelpOutlineIcon from '@material-ui/icons/HelpOutline';
import ReportProblemIcon from '@material-ui/icons/ReportProblem';
import HourglassEmptyIcon from '@material-ui/icons/HourglassEmpty';
import { Link } from '@backstage/core-components';
import { Provenance, ProvenanceState } from '@refplat/plugin-promotions-common';

const useStyles = makeStyles(theme => ({
  line: { display: 'flex', alignItems: 'center', gap: theme.spacing(0.5), flexWrap: 'wrap' },
  icon: { fontSize: 14 },
  verified: { color: theme.palette.success.main },
  unverified: { color: theme.palette.warning.dark },
  failed: { color: theme.palette.error.main },
  unknown: { color: theme.palette.text.secondary },
  checking: { color: theme.palette.text.secondary },
  why: { margin: 0, paddingLeft: theme.spacing(2) },
}));

const WORDS: Record<ProvenanceState, string> = {
  verified: 'Signed',
  unverified: 'Not verified',
  failed: 'Provenance failed',
  unknown: 'Provenance unknown',
  checking: 'Checking provenance…',
};

const ICONS = {
  verified: VerifiedUserIcon,
  unverified: ReportProblemIcon,
  failed: ErrorIcon,
  unknown: HelpOutlineIcon,
  checking: HourglassEmptyIcon,
};

/** `https://github.com/acme/shop` + a commit → its commit page; other sources (not http or https) are named, not linked. */
export function commitUrl(sourceRepo: string | undefined, commit: string): string | undefined {
  if (!sourceRepo || !/^https?:\/\//.test(sourceRepo)) return undefined;
  return `${sourceRepo.replace(/\.git$/, '').replace(/\/+$/, '')}/commit/${commit}`;
}

/** Who signed it, who attested it, and why not verified, for the hover. */
function details(provenance: Provenance) {
  return [
    ...(provenance.signer ? [`Signed by ${provenance.signer}`] : []),
    ...(provenance.builder ? [`SLSA provenance by ${provenance.builder}`] : []),
    ...(provenance.sourceRepo ? [`Built from ${provenance.sourceRepo}${provenance.sourceCommit ? ` at ${provenance.sourceCommit}` : ''}`] : []),
    ...provenance.reasons,
  ];
}

/**
 * Where the cell's digest came from: "Signed · from 3f2a1bc" linking the
 * source commit the SLSA provenance names, or why it is not verified.
 * Hovering says who signed and attested it, and every reason.
 */
export const ProvenanceNote = (props: { provenance: Provenance; testId: string }) => {
  const classes = useStyles();
  const { provenance } = props;
  const Icon = ICONS[provenance.state];
  const commit = provenance.sourceCommit;
  const url = commit ? commitUrl(provenance.sourceRepo, commit) : undefined;
  const lines = details(provenance);
  return (
    <Tooltip
      title={
        <ul className={classes.why} data-testid={`${props.testId}-details`}>
          {lines.map(line => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      }
    >
      <Typography
        variant="caption"
        component="div"
        className={classes.line}
        data-testid={props.testId}
        data-state={provenance.state}
      >
        <Icon className={`${classes.icon} ${classes[provenance.state]}`} aria-hidden />
        <span className={classes[provenance.state]}>{WORDS[provenance.state]}</span>
        {commit && (
          <>
            {' · from '}
            {url ? (
              <Link to={url} data-testid={`${props.testId}-commit`}>
                {commit.slice(0, 7)}
              </Link>
            ) : (
              <span data-testid={`${props.testId}-commit`}>{commit.slice(0, 7)}</span>
            )}
          </>
        )}
      </Typography>
    </Tooltip>
  );
};
