import type { DiagnosisInput } from '../diagnosisTypes';

/** What the registry check said of the released digest, for a stall the supply chain may explain. */
export type SupplyChainFact =
  | { verdict: 'broken'; text: string }
  | { verdict: 'sound'; text: string };

/**
 * The released digest's provenance as a checked fact: `broken` (never
 * pushed, unsigned, wrong signer, no provenance: its reasons say which and
 * where to look), `sound` (signed and attested), or nothing when it was not
 * checked or could not be (`unknown` proves nothing either way).
 */
export function supplyChainFact(input: Pick<DiagnosisInput, 'provenance'>): SupplyChainFact | undefined {
  const provenance = input.provenance;
  if (!provenance || provenance.state === 'unknown' || provenance.state === 'checking') return undefined;
  if (provenance.state === 'verified') {
    return { verdict: 'sound', text: 'the digest is signed and has SLSA provenance from the provenance workflow (checked in the registry)' };
  }
  const reasons = provenance.reasons.length ? provenance.reasons.join('; ') : `provenance ${provenance.state}`;
  return { verdict: 'broken', text: `checked in the registry: ${reasons}` };
}
