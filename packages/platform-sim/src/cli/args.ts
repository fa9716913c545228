/** Minimal `--flag value`, `--flag=value` and `--switch` parsing; positional arguments are kept in order. */
export interface ParsedArgs {
  flags: Record<string, string | true>;
  positional: string[];
}

export function parseArgs(argv: string[], switches: string[] = []): ParsedArgs {
  const flags: Record<string, string | true> = {};
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    if (eq > 0) {
      flags[arg.slice(2, eq)] = arg.slice(eq + 1);
    } else if (
      switches.includes(arg.slice(2)) ||
      i + 1 >= argv.length ||
      argv[i + 1].startsWith('--')
    ) {
      flags[arg.slice(2)] = true;
    } else {
      flags[arg.slice(2)] = argv[++i];
    }
  }
  return { flags, positional };
}

/** A flag's value, else the environment variable, else undefined. */
export function flagOrEnv(
  args: ParsedArgs,
  flag: string,
  env: string,
): string | undefined {
  const value = args.flags[flag];
  if (typeof value === 'string') return value;
  return process.env[env] || undefined;
}

/** A switch given, or its environment variable `true`: true; else undefined (the option's default). */
export function switchOrEnv(args: ParsedArgs, flag: string, env: string): true | undefined {
  return args.flags[flag] === true || process.env[env] === 'true' ? true : undefined;
}

export function toNumber(
  value: string | undefined,
  name: string,
): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed))
    throw new Error(`${name} must be a number, got ${value}`);
  return parsed;
}

/** Where a running simulator answers: `--url`, else PLATFORM_SIM_URL, else its default port on this machine. */
export function simulatorUrl(args: ParsedArgs): string {
  const url =
    flagOrEnv(args, 'url', 'PLATFORM_SIM_URL') ??
    `http://127.0.0.1:${process.env.PLATFORM_SIM_PORT ?? 7070}`;
  return url.replace(/\/$/, '');
}
