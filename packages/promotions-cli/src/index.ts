import { Command, InvalidArgumentError, Option } from 'commander';
import { PROMOTION_WAIT_TARGETS, PromotionWaitTarget } from '@refplat/plugin-promotions-common';
import { CliError, EXIT, PromotionsClient } from './client';
import { formatExplanation, formatLadder, formatPromotion, formatWaited } from './format';
import { parseDuration, waitFor } from './wait';

type GlobalOptions = { backend: string; token?: string; json?: boolean };

const program = new Command('promotions')
  .description('Promotion ladders from a terminal or a pipeline, with your Backstage permissions')
  .option('--backend <url>', 'the Backstage backend', process.env.BACKSTAGE_BACKEND ?? 'http://localhost:7007')
  .option('--token <token>', 'a Backstage token (default: $BACKSTAGE_TOKEN)')
  .option('--json', 'print JSON for pipelines instead of text for people')
  .exitOverride();

function context(command: Command) {
  const options = command.optsWithGlobals<GlobalOptions>();
  const token = options.token ?? process.env.BACKSTAGE_TOKEN;
  if (!token) throw new CliError('Give a Backstage token: --token or BACKSTAGE_TOKEN', EXIT.usage);
  const print = (value: unknown, text: string) => console.log(options.json ? JSON.stringify(value, null, 2) : text);
  return { client: new PromotionsClient(options.backend, token), print };
}

const product = (value: string) => {
  if (!/^[a-z0-9-]+\/[a-z0-9-]+$/.test(value)) throw new InvalidArgumentError('use <team>/<product>, e.g. alpha/shop');
  return value;
};

program
  .command('ladder')
  .description('each stage: digest, health, canary and what waits to climb')
  .argument('<product>', '<team>/<product>', product)
  .action(async (name: string, _options, command: Command) => {
    const { client, print } = context(command);
    const ladder = await client.invoke<Parameters<typeof formatLadder>[0]>('get-ladder', { product: name });
    print(ladder, formatLadder(ladder));
  });

program
  .command('explain')
  .description('why a stage is stuck or cannot be promoted into')
  .argument('<product>', '<team>/<product>', product)
  .argument('<stage>')
  .option('--service <service>', 'one service of the stage')
  .action(async (name: string, stage: string, options: { service?: string }, command: Command) => {
    const { client, print } = context(command);
    const explanation = await client.invoke<{ text: string }>('explain', { product: name, stage, ...options });
    print(explanation, formatExplanation(explanation));
  });

program
  .command('request')
  .description('request a promotion into a stage, and optionally wait for it')
  .argument('<product>', '<team>/<product>', product)
  .requiredOption('--to <stage>', 'the stage to promote into')
  .option('--service <service...>', 'only these services')
  .addOption(new Option('--wait <until>', 'wait until the PR is merged, or the stage runs it healthy').choices(PROMOTION_WAIT_TARGETS))
  .option('--timeout <duration>', 'how long to wait, e.g. 90s, 15m', parseDuration, parseDuration('15m'))
  .action(async (name: string, options: { to: string; service?: string[]; wait?: PromotionWaitTarget; timeout: number }, command: Command) => {
    const { client, print } = context(command);
    const requested = await client.invoke<{ existing: boolean; promotion: Parameters<typeof formatPromotion>[0] }>(
      'request-promotion',
      { product: name, toStage: options.to, ...(options.service ? { services: options.service } : {}) },
    );
    if (!options.wait) {
      print(requested, formatPromotion(requested.promotion, requested.existing));
      return;
    }
    const promotion = await waitFor(client, name, requested.promotion, options.wait, options.timeout);
    print(
      { ...requested, promotion, waitedFor: options.wait },
      `${formatPromotion(promotion, requested.existing)}\n${formatWaited(promotion, options.wait)}`,
    );
  });

program
  .command('approve')
  .description('approve a promotion awaiting approval')
  .argument('<id>', 'the promotion id')
  .action(async (id: string, _options, command: Command) => {
    const { client, print } = context(command);
    const approved = await client.invoke<{ promotion: Parameters<typeof formatPromotion>[0] }>('approve-promotion', { id });
    print(approved, formatPromotion(approved.promotion, false));
  });

program.parseAsync(process.argv).catch((error: unknown) => {
  if (error instanceof CliError) {
    console.error(`promotions: ${error.message}`);
    process.exitCode = error.exitCode;
    return;
  }
  // commander has printed its own message (usage, --help, --version).
  const exitCode = (error as { exitCode?: number }).exitCode;
  if (exitCode !== undefined) {
    process.exitCode = exitCode === 0 ? EXIT.ok : EXIT.usage;
    return;
  }
  console.error(`promotions: ${(error as Error).message ?? error}`);
  process.exitCode = EXIT.failed;
});
