import { InfoCard, Progress } from '@backstage/core-components';
import { HealthUnknownPanel } from '../common/HealthUnknownPanel';
import { CannotReadPanel } from '../common/CannotReadPanel';
import {
  EntityDisplayName,
  EntityRefLink,
  MissingAnnotationEmptyState,
} from '@backstage/plugin-catalog-react';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@material-ui/core';
import {
  ProductRef,
  SERVICE_ANNOTATION,
} from '@refplat/plugin-promotions-common';
import { useLadder } from '../../hooks/useLadder';
import { useProductSystem } from '../../hooks/useProductSystem';
import { usePromotionsTarget } from '../../hooks/usePromotionsTarget';
import { ProductLookupError } from '../common/ProductLookupError';
import { CanaryProgress } from '../common/CanaryProgress';
import { DigestLabel } from '../common/DigestLabel';
import { HealthChip } from '../common/HealthChip';
import { useCompactTableStyles } from '../common/styles';
import { ProvenanceNote } from '../Provenance/ProvenanceNote';

/** A link to the System page, where the Product's whole ladder is. */
const LadderLink = (props: { product: ProductRef }) => {
  const { system } = useProductSystem(props.product);
  if (!system) return null;
  return (
    <Typography variant="body2" data-testid="ladder-link">
      <EntityRefLink entityRef={system}>
        The whole ladder of{' '}
        <EntityDisplayName entityRef={system} hideIcon disableTooltip /> →
      </EntityRefLink>
    </Typography>
  );
};

/** One Service's digest, health and canary at every stage, and the way to its Product's ladder. */
export const EntityServicePromotionsCard = () => {
  const {
    target,
    loading: targetLoading,
    error: targetError,
  } = usePromotionsTarget();
  const { ladder, error } = useLadder(target?.product);
  const classes = useCompactTableStyles();

  if (targetLoading) return <Progress />;
  if (targetError) return <ProductLookupError error={targetError} />;
  if (!target?.service) {
    return <MissingAnnotationEmptyState annotation={SERVICE_ANNOTATION} />;
  }
  const service = target.service;

  return (
    <InfoCard
      title="Promotions"
      subheader={`${service} in ${target.product.team}/${target.product.product}`}
    >
      <LadderLink product={target.product} />
      {!ladder && !error && <Progress />}
      {error && !ladder && (
        <CannotReadPanel what="the ladder" error={error} />
      )}
      {ladder?.healthError && <HealthUnknownPanel reason={ladder.healthError} />}
      {ladder && !ladder.services.includes(service) && (
        <Typography>
          {service} is not in any Release record or Environment of {ladder.team}
          /{ladder.product}.
        </Typography>
      )}
      {ladder && ladder.services.includes(service) && (
        <Table
          size="small"
          aria-label={`${service} per stage`}
          className={classes.table}
        >
          <TableHead>
            <TableRow>
              <TableCell>Stage</TableCell>
              <TableCell>Digest</TableCell>
              <TableCell>Health and canary</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {ladder.stages.map(stage => {
              const cell = stage.services[service];
              return (
                <TableRow
                  key={stage.name}
                  data-testid={`service-stage-${stage.name}`}
                >
                  <TableCell>{stage.name}</TableCell>
                  <TableCell>
                    {cell?.digest ? (
                      <>
                        <DigestLabel digest={cell.digest} />
                        {cell.provenance && (
                          <ProvenanceNote
                            provenance={cell.provenance}
                            testId={`service-provenance-${stage.name}`}
                          />
                        )}
                      </>
                    ) : (
                      <Typography variant="body2" color="textSecondary">
                        {cell?.declared === false || !cell
                          ? 'not declared'
                          : 'not released'}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell>
                    {cell && (
                      <HealthChip
                        verdict={cell.verdict}
                        reasons={cell.reasons}
                      />
                    )}
                    <CanaryProgress canary={cell?.canary} />
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      )}
    </InfoCard>
  );
};
