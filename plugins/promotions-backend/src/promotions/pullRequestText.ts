import { createHash } from 'crypto';
import { isCatalogActor, releaseApprovers, shortDigest } from '@refplat/plugin-promotions-common';
import type { PullRequestLabelling } from '../config';
import type { NameOf } from '../service/ActorNames';

export interface PullRequestTextInput {
  id: string;
  kind?: 'promotion' | 'rollback';
  team: string;
  product: string;
  fromStage: string;
  toStage: string;
  services: Record<string, string>;
  previous: Record<string, string | null>;
  requestedBy: string;
  requiresApproval: boolean;
  /** Distinct release-approvers a promotion into the stage needs (1 when not given). */
  quorum?: number;
  /** Into the first stage, which CI writes and nothing promotes into: a rollback there holds nothing. */
  bottomRung?: boolean;
  approvers: string[];
  fingerprint: string;
  entityUrl?: string;
  /** People's names for the requester and the approvers: the body names no entity refs. */
  nameOf: NameOf;
}

const DEFAULT_USER = 'user:default/';

/** A ref as a reviewer can read it: `user:default/alice` is `alice`; other refs stay whole. */
function plainActor(actor: string): string {
  return actor.startsWith(DEFAULT_USER) ? actor.slice(DEFAULT_USER.length) : actor;
}

/** What `plainActor` wrote, as the ref again: a plain name has no kind, so it is a default-namespace User. */
function actorFromPlain(plain: string): string {
  return plain.includes(':') ? plain : `${DEFAULT_USER}${plain}`;
}

/**
 * An actor in text people read on GitHub: "Alice Approver (alice)", the name
 * people know and the plain one that finds them (and that a PR body is read
 * back by); just "bob" when the two are the same.
 */
export function actorInText(actor: string, nameOf: NameOf, quote = (plain: string) => plain): string {
  const name = nameOf(actor);
  const plain = plainActor(actor);
  return name === plain ? quote(plain) : `${name} (${quote(plain)})`;
}

/** `actorInText` for markdown: "Alice Approver (`alice`)". */
export function actorInMarkdown(actor: string, nameOf: NameOf): string {
  return actorInText(actor, nameOf, plain => `\`${plain}\``);
}

/** The same promotion (target stage and digests) always has the same fingerprint. */
export function promotionFingerprint(
  team: string,
  product: string,
  toStage: string,
  services: Record<string, string>,
): string {
  const canonical = JSON.stringify([
    team,
    product,
    toStage,
    Object.entries(services).sort(([a], [b]) => a.localeCompare(b)),
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}

/** Every promotion PR's body carries this: the plugin finds its PRs from GitHub alone. */
export const PULL_REQUEST_MARKER = '<!-- promotions:key=';

/** Finds a product's promotion PRs into a stage from GitHub alone. */
export function pullRequestMarkerPrefix(team: string, product: string, toStage: string) {
  return `${PULL_REQUEST_MARKER}${team}/${product}/${toStage} `;
}

const MARKER = /<!-- promotions:key=(\S+) fingerprint=(\w+) id=([\w-]+) -->/g;

/** The marker's parts: `key` is team/product/toStage. The first marker of a fleet PR's. */
export function parseMarker(body: string): { key?: string; fingerprint?: string; id?: string } {
  return parseMarkers(body)[0] ?? {};
}

/** Every marker of a PR body: one, or one per Product of a fleet PR. */
export function parseMarkers(body: string): Array<{ key: string; fingerprint: string; id: string }> {
  return [...body.matchAll(MARKER)].map(match => ({ key: match[1], fingerprint: match[2], id: match[3] }));
}

/** Every promotion branch is under this prefix. */
export const BRANCH_PREFIX = 'promotions/';

export function branchName(input: { team: string; product: string; toStage: string; id: string }) {
  return `${BRANCH_PREFIX}${input.team}-${input.product}-${input.toStage}-${input.id.slice(0, 8)}`;
}

const FLEET_BRANCH_PREFIX = `${BRANCH_PREFIX}fleet/`;

/** A fleet PR's branch: several Products' promotions into `toStage`. */
export function fleetBranchName(toStage: string, id: string) {
  return `${FLEET_BRANCH_PREFIX}${toStage}-${id.slice(0, 8)}`;
}

/** Whether a promotion's branch is a fleet PR's: its PR is shared, never closed for one Product. */
export function isFleetBranch(branch: string | undefined): boolean {
  return branch?.startsWith(FLEET_BRANCH_PREFIX) ?? false;
}

/**
 * The labels of a Release PR, none where `labelling` leaves it unlabelled:
 * 'requested' labels the PRs a person (a catalog user) asked for, not those
 * the plugin's own workers (the auto-promoter) open in bulk.
 */
export function pullRequestLabels(
  input: { team: string; product: string; toStage: string; requestedBy: string },
  labelling: PullRequestLabelling,
): string[] {
  if (labelling === 'none' || (labelling === 'requested' && !isCatalogActor(input.requestedBy))) return [];
  return ['promotion', `stage:${input.toStage}`, `product:${input.team}-${input.product}`];
}

export function pullRequestTitle(
  input: Pick<PullRequestTextInput, 'team' | 'product' | 'fromStage' | 'toStage' | 'services' | 'kind'>,
) {
  const services = Object.keys(input.services).join(', ');
  if (input.kind === 'rollback') {
    return `Roll back ${services} in ${input.toStage} (${input.team}/${input.product})`;
  }
  return `Promote ${services} ${input.fromStage} → ${input.toStage} (${input.team}/${input.product})`;
}

/** What happens to the PR next, in the reviewer's words. */
function nextStep(input: PullRequestTextInput): string {
  const approval = `**Needs ${releaseApprovers(input.quorum)}** (members of ${input.approvers.map(input.nameOf).join(', ')}) to approve it in Backstage`;
  if (input.kind === 'rollback') {
    const hold = input.bottomRung
      ? `CI's next release into \`${input.toStage}\` replaces it.`
      : `The auto-promoter holds \`${input.toStage}\` for these services until someone resumes it.`;
    return input.requiresApproval
      ? `**Rollback** to earlier digests. ${approval}. ${hold}`
      : `**Rollback** to earlier digests: merges without waiting for another stage. ${hold}`;
  }
  return input.requiresApproval
    ? `${approval}; it merges once approved and while \`${input.fromStage}\` is still healthy.`
    : `Merges automatically once \`${input.fromStage}\` is Synced, Healthy and running these digests; while it waits, the commit status \`promotions/health\` says why.`;
}

const FULL_DIGESTS = 'Full digests:';
/** Written where the stage had no digest for a service. */
const NO_DIGEST = '_none_';
function replacedDigestsHeading(toStage: string) {
  return `Full digests in \`${toStage}\` before this PR:`;
}

/** A PR description a reviewer understands on GitHub, without Backstage. */
export function pullRequestBody(input: PullRequestTextInput): string {
  const rows = Object.entries(input.services).map(([service, digest]) => {
    const before = input.previous[service];
    return `| ${service} | ${before ? `\`${shortDigest(before)}\`` : '_none_'} | \`${shortDigest(digest)}\` |`;
  });
  const next = nextStep(input);
  const summary =
    input.kind === 'rollback'
      ? `Rolls **${input.team}/${input.product}** in \`${input.toStage}\` back to earlier digests: this PR edits only the \`${input.toStage}\` Release record.`
      : `Promotes **${input.team}/${input.product}** from \`${input.fromStage}\` to \`${input.toStage}\`: this PR edits only the \`${input.toStage}\` Release record.`;
  return [
    summary,
    '',
    `| service | ${input.toStage} now | after this PR |`,
    '|---|---|---|',
    ...rows,
    '',
    ...digestLists(input),
    '',
    `Requested by ${actorInMarkdown(input.requestedBy, input.nameOf)}${input.entityUrl ? ` from [Backstage](${input.entityUrl})` : ''}.`,
    '',
    next,
    '',
    markerLine(input),
  ].join('\n');
}

/**
 * The full digests after and before the PR, as `parsePullRequestBody` reads
 * them back: what a promotion is rebuilt from if its record is lost.
 */
export function digestLists(input: Pick<PullRequestTextInput, 'toStage' | 'services' | 'previous'>): string[] {
  return [
    FULL_DIGESTS,
    ...Object.entries(input.services).map(([service, digest]) => `- ${service}: \`${digest}\``),
    '',
    replacedDigestsHeading(input.toStage),
    ...Object.keys(input.services).map(service => {
      const before = input.previous[service];
      return `- ${service}: ${before ? `\`${before}\`` : NO_DIGEST}`;
    }),
  ];
}

/** The hidden line the plugin finds its PRs by, and their promotions. */
export function markerLine(input: Pick<PullRequestTextInput, 'team' | 'product' | 'toStage' | 'fingerprint' | 'id'>): string {
  return `${pullRequestMarkerPrefix(input.team, input.product, input.toStage)}fingerprint=${input.fingerprint} id=${input.id} -->`;
}

/** What a promotion PR's body says of its promotion: enough to rebuild it after its record was lost. */
export interface PullRequestBodyFacts {
  id: string;
  fingerprint: string;
  team: string;
  product: string;
  fromStage: string;
  toStage: string;
  kind: 'promotion' | 'rollback';
  services: Record<string, string>;
  /** What the stage ran before, as the body lists it; absent from bodies written before it did. */
  previousServices?: Record<string, string | null>;
  requestedBy: string;
}

/** The `- name: value` lines of the list right under `heading`, up to the first line that is not one. */
function listUnder(body: string, heading: string): Array<[string, string]> {
  const lines = body.split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) return [];
  const entries: Array<[string, string]> = [];
  for (const line of lines.slice(start + 1)) {
    const entry = line.match(/^- ([\w.-]+): (.+)$/);
    if (!entry) break;
    entries.push([entry[1], entry[2]]);
  }
  return entries;
}

const QUOTED_DIGEST = /^`(sha256:[0-9a-f]{64})`$/;

/** The digests the stage ran before the PR, or undefined where the body does not list them whole. */
function previousServicesIn(body: string, toStage: string, services: Record<string, string>) {
  const listed = listUnder(body, replacedDigestsHeading(toStage));
  const previous: Record<string, string | null> = {};
  for (const [service, value] of listed) {
    const digest = value.match(QUOTED_DIGEST)?.[1];
    if (!digest && value !== NO_DIGEST) return undefined;
    previous[service] = digest ?? null;
  }
  const complete = Object.keys(services).every(service => service in previous);
  return listed.length > 0 && complete ? previous : undefined;
}

/**
 * Reads back what `pullRequestBody` wrote, or undefined when the body is not one it wrote (a
 * marker without its summary, digests or requester). The marker's fingerprint must match the
 * digests listed, so an edited list is not taken for the promotion.
 */
export function parsePullRequestBody(body: string): PullRequestBodyFacts | undefined {
  const { key, fingerprint, id } = parseMarker(body);
  const [team, product, toStage] = key?.split('/') ?? [];
  if (!id || !fingerprint || !team || !product || !toStage) return undefined;
  const promotes = body.match(/^Promotes \*\*[^*]+\*\* from `([^`]+)` to `([^`]+)`/m);
  const rollsBack = body.match(/^Rolls \*\*[^*]+\*\* in `([^`]+)` back/m);
  // "Requested by `bob`", "Requested by Alice Approver (`alice`)", or a whole ref (bodies written before names).
  const requester = body.match(/^Requested by (?:`([^`]+)`|[^\n]*?\(`([^`]+)`\))/m);
  const plainRequester = requester?.[1] ?? requester?.[2];
  const requestedBy = plainRequester ? actorFromPlain(plainRequester) : undefined;
  const services: Record<string, string> = {};
  for (const [service, value] of listUnder(body, FULL_DIGESTS)) {
    const digest = value.match(QUOTED_DIGEST)?.[1];
    if (!digest) return undefined;
    services[service] = digest;
  }
  if ((!promotes && !rollsBack) || !requestedBy || Object.keys(services).length === 0) return undefined;
  if (promotionFingerprint(team, product, toStage, services) !== fingerprint) return undefined;
  const previousServices = previousServicesIn(body, toStage, services);
  return {
    ...(previousServices ? { previousServices } : {}),
    id,
    fingerprint,
    team,
    product,
    toStage,
    fromStage: promotes ? promotes[1] : toStage,
    kind: promotes ? 'promotion' : 'rollback',
    services,
    requestedBy,
  };
}
