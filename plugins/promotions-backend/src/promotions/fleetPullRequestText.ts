import { shortDigest } from '@refplat/plugin-promotions-common';
import { PullRequestTextInput, actorInMarkdown, digestLists, markerLine, parsePullRequestBody } from './pullRequestText';
import type { PullRequestBodyFacts } from './pullRequestText';

/** Between two Products' sections of a fleet PR's body. */
const SECTION_SEPARATOR = '\n\n---\n\n';
/** GitHub refuses a PR body longer than 65,536 characters; the rest is headroom. */
export const FLEET_BODY_MAX_CHARS = 60_000;

type FleetMemberText = Omit<PullRequestTextInput, 'requiresApproval' | 'approvers' | 'quorum' | 'bottomRung'>;

export function fleetPullRequestTitle(members: Array<Pick<FleetMemberText, 'fromStage' | 'toStage'>>): string {
  const { fromStage, toStage } = members[0];
  return `Promote ${members.length} Product${members.length === 1 ? '' : 's'} ${fromStage} → ${toStage} (fleet)`;
}

/**
 * A fleet PR's description: what happens to it, then one section per
 * Product, each a Release change `parsePullRequestBody` reads back on its
 * own (a lost record is restored from it, as from a PR of its own).
 */
export function fleetPullRequestBody(members: FleetMemberText[]): string {
  const { fromStage, toStage } = members[0];
  const intro = [
    `Promotes **${members.length} Products** from \`${fromStage}\` to \`${toStage}\` in one PR (the auto-promoter's fleet mode): each Product's change edits only its own \`${toStage}\` Release record.`,
    '',
    `Merges automatically once \`${fromStage}\` is Synced, Healthy and running these digests for every Product below. A Product whose \`${fromStage}\` is not, when the Gate looks, is taken out with a commit that restores its Release record; the auto-promoter offers it again.`,
  ].join('\n');
  return [intro, ...members.map(memberSection)].join(SECTION_SEPARATOR);
}

function memberSection(member: FleetMemberText): string {
  const changes = Object.entries(member.services).map(([service, digest]) => {
    const before = member.previous[service];
    return `${service} ${before ? `\`${shortDigest(before)}\`` : '_none_'} → \`${shortDigest(digest)}\``;
  });
  return [
    `Promotes **${member.team}/${member.product}** from \`${member.fromStage}\` to \`${member.toStage}\`: ${changes.join(', ')}.`,
    '',
    ...digestLists(member),
    '',
    `Requested by ${actorInMarkdown(member.requestedBy, member.nameOf)}${member.entityUrl ? ` from [Backstage](${member.entityUrl})` : ''}.`,
    '',
    markerLine(member),
  ].join('\n');
}

/** Each Product's change a fleet PR's body lists, as `parsePullRequestBody` reads a PR of its own. */
export function parseFleetPullRequestBody(body: string): PullRequestBodyFacts[] {
  return body.split(SECTION_SEPARATOR).flatMap(section => parsePullRequestBody(section) ?? []);
}
