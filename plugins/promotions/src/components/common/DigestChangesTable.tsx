import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
} from '@material-ui/core';
import { DigestChange } from './DigestChange';
import { useCompactTableStyles } from './styles';

/** One service's digest in a stage now, and the digest a change writes there. */
export interface ServiceDigestChange {
  service: string;
  /** What the stage runs now; undefined when it has no Release of it. */
  current?: string;
  next: string;
}

/** The digests a promotion or a rollback changes in a stage, one row a service. */
export const DigestChangesTable = (props: {
  changes: ServiceDigestChange[];
  /** The second column's heading, e.g. "prod now → after the promotion". */
  heading: string;
  ariaLabel: string;
  /** Each row's test id: this prefix, then the service. */
  rowTestIdPrefix: string;
  className?: string;
}) => {
  const classes = useCompactTableStyles();
  return (
    <Table
      size="small"
      className={`${classes.table} ${props.className ?? ''}`}
      aria-label={props.ariaLabel}
    >
      <TableHead>
        <TableRow>
          <TableCell>Service</TableCell>
          <TableCell>{props.heading}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {props.changes.map(change => (
          <TableRow
            key={change.service}
            data-testid={`${props.rowTestIdPrefix}${change.service}`}
          >
            <TableCell>{change.service}</TableCell>
            <TableCell>
              <DigestChange from={change.current} to={change.next} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
};
