#!/usr/bin/env node
import { parseArgs, simulatorUrl } from './args';

const USAGE =
  'usage: push <team> <product> <service> [--bad] [--digest sha256:...] [--url http://127.0.0.1:7070]';

/**
 * "Play CI": asks a running simulator to write a new digest for a service into
 * the dev Release (POST /_sim/ci/push) and prints the digest.
 */
async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), ['bad', 'help']);
  const [team, product, service] = args.positional;
  if (args.flags.help || !team || !product || !service) {
    console.error(USAGE);
    process.exit(2);
  }
  const url = simulatorUrl(args);
  const body = {
    team,
    product,
    service,
    bad: args.flags.bad === true,
    digest:
      typeof args.flags.digest === 'string' ? args.flags.digest : undefined,
  };
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

main().catch(error => {
  console.error('push failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
