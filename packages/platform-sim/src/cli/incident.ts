#!/usr/bin/env node
import { parseArgs, simulatorUrl } from './args';

const USAGE =
  'usage: incident <team> <product> --open|--resolve [--url http://127.0.0.1:7070]';

interface Answer {
  incident?: { id: string; product: string; state: string; url: string };
  delivery?: { url: string; status: number; error?: string };
  error?: string;
}

/** Where the report went, or why it did not arrive. */
function reporting(delivery: Answer['delivery']): string {
  if (!delivery) return 'not reported: the simulator was started without --incidents-url';
  if (delivery.error !== undefined) {
    return `reporting it to ${delivery.url} failed (${delivery.status || 'unreachable'}): ${delivery.error}`;
  }
  return `reported to ${delivery.url} (${delivery.status})`;
}

/** The one line that says what happened: the incident, its page, and where it was reported. */
function describe({ incident, delivery }: Answer): string {
  const done = incident!.state === 'open' ? 'Opened' : 'Resolved';
  return `${done} incident ${incident!.id} of ${incident!.product}: ${incident!.url}; ${reporting(delivery)}`;
}

/**
 * "Play the incident tool": asks a running simulator to open or resolve a
 * Product's incident (POST /_sim/incidents), which it reports to the
 * promotions plugin's incident gate, and prints what it did.
 */
async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), ['open', 'resolve', 'help']);
  const [team, product] = args.positional;
  const open = args.flags.open === true;
  if (args.flags.help || !team || !product || open === (args.flags.resolve === true)) {
    console.error(USAGE);
    process.exit(2);
  }
  const url = simulatorUrl(args);
  const response = await fetch(`${url}/_sim/incidents`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ product: `${team}/${product}`, state: open ? 'open' : 'resolved' }),
  });
  const answer = (await response.json()) as Answer;
  if (!answer.incident) {
    console.error(`incident failed (${response.status}): ${answer.error ?? JSON.stringify(answer)}`);
    process.exit(1);
  }
  if (!response.ok) {
    console.error(describe(answer));
    process.exit(1);
  }
  console.log(describe(answer));
}

main().catch(error => {
  console.error('incident failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
