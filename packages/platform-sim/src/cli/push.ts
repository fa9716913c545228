#!/usr/bin/env node
import type { CiPushRequest } from '../control/simControl';
import type { Stall } from '../world/stalls/stall';
import { ParsedArgs, parseArgs, simulatorUrl } from './args';

const USAGE = `usage: push <team> <product> <service> [--bad] [--digest sha256:...] [--url http://127.0.0.1:7070]
  with a simulator started with --registry-url, a push without --digest publishes a signed build;
  these break its supply chain: --unsigned --wrong-signer --no-provenance --tampered --not-pushed
  --foreign-builder --foreign-source
  one of these stalls the build where it rolls out: --denied-by-admission --unschedulable
  --quota-exceeded --probe-failing --crash-loop --slow-analysis --route-not-accepted`;

/** The supply-chain flags on the command line, as the control API names them. */
const BUILD_FLAGS = {
  unsigned: 'unsigned',
  'wrong-signer': 'wrongSigner',
  'no-provenance': 'noProvenance',
  tampered: 'tampered',
  'not-pushed': 'notPushed',
  'foreign-builder': 'foreignBuilder',
  'foreign-source': 'foreignSource',
} as const;

/** The stall flags on the command line, as the control API's `stall` names them. */
const STALL_FLAGS: Record<string, Stall> = {
  'denied-by-admission': 'deniedByAdmission',
  unschedulable: 'unschedulable',
  'quota-exceeded': 'quotaExceeded',
  'probe-failing': 'probeFailing',
  'crash-loop': 'crashLoop',
  'slow-analysis': 'slowAnalysis',
  'route-not-accepted': 'routeNotAccepted',
};

export const parsePushArgs = (argv: string[]): ParsedArgs =>
  parseArgs(argv, ['bad', 'help', ...Object.keys(BUILD_FLAGS), ...Object.keys(STALL_FLAGS)]);

/** The stall a push asks for; a build stalls one way only. */
function stallOf(args: ParsedArgs): Stall | undefined {
  const asked = Object.keys(STALL_FLAGS).filter(flag => args.flags[flag] === true);
  if (asked.length > 1)
    throw new Error(`a build stalls one way only, got --${asked.join(' --')}`);
  return asked.length === 1 ? STALL_FLAGS[asked[0]] : undefined;
}

/** The control API's body for the positional team, product and service and the flags. */
export function pushRequest(args: ParsedArgs): CiPushRequest {
  const [team, product, service] = args.positional;
  const stall = stallOf(args);
  return {
    team,
    product,
    service,
    bad: args.flags.bad === true,
    digest:
      typeof args.flags.digest === 'string' ? args.flags.digest : undefined,
    ...Object.fromEntries(
      Object.entries(BUILD_FLAGS)
        .filter(([flag]) => args.flags[flag] === true)
        .map(([, field]) => [field, true]),
    ),
    ...(stall ? { stall } : {}),
  };
}

/**
 * "Play CI": asks a running simulator to write a new digest for a service into
 * the dev Release (POST /_sim/ci/push) and prints the digest.
 */
async function main(): Promise<void> {
  const args = parsePushArgs(process.argv.slice(2));
  const [team, product, service] = args.positional;
  if (args.flags.help || !team || !product || !service) {
    console.error(USAGE);
    process.exit(2);
  }
  const url = simulatorUrl(args);
  const body = pushRequest(args);
  const response = await fetch(`${url}/_sim/ci/push`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const result = (await response.json()) as {
    digest?: string;
    commit?: string;
    error?: string;
  };
  if (!response.ok || !result.digest) {
    console.error(
      `push failed (${response.status}): ${result.error ?? JSON.stringify(result)}`,
    );
    process.exit(1);
  }
  console.log(result.digest);
}

if (require.main === module) {
  main().catch(error => {
    console.error('push failed:', error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
