import { InputError } from '@backstage/errors';
import { isValidDigest, isValidName, parseProductRef } from '@refplat/plugin-promotions-common';
import { z } from 'zod';
import { boundedQuote } from './boundedQuote';

/** A reason is shown on the ladder: longer ones are cut to this. */
export const MAX_HOLD_REASON_CHARS = 500;

const NAME_RULE = 'lowercase letters, digits and -';
const name = (field: string) => z.custom<string>(isValidName, `${field} must be a name (${NAME_RULE})`);

/** An override's reason goes onto the PR and into the trail whole: bounded, like a rejection's. */
export const MAX_OVERRIDE_REASON_CHARS = 1000;

const overrideReason = (field: string) =>
  z
    .string({ required_error: 'An override needs a reason', invalid_type_error: `${field} must be text` })
    .trim()
    .min(1, 'An override needs a reason')
    .max(MAX_OVERRIDE_REASON_CHARS, `${field} is limited to ${MAX_OVERRIDE_REASON_CHARS} characters`);

/** `POST /promotions/:id/override`: lifting the guards' blocks from an open promotion. */
export const overrideBody = z.object({ reason: overrideReason('reason') });

export const promotionRequestBody = z.object({
  toStage: z.custom<string>(isValidName, `toStage must be a stage name (${NAME_RULE})`),
  /** A release-approver's override of the guards' blocks (e.g. a freeze window). */
  override: z.object({ reason: overrideReason('override.reason') }).optional(),
  services: z
    .array(name('each service'), {
      invalid_type_error: 'services, when given, must be a non-empty list of service names',
    })
    .min(1, 'services, when given, must be a non-empty list of service names')
    .optional(),
});

export const rollbackBody = z.object({
  stage: name('stage'),
  services: z
    .record(
      name('each service'),
      z.custom<string>(isValidDigest, 'each digest must be sha256:<64 lowercase hex>'),
      { invalid_type_error: 'services must map each service to the digest to roll back to' },
    )
    .refine(services => Object.keys(services).length > 0, 'services must name at least one service'),
});

export const holdBody = z.object({
  stage: name('stage'),
  service: name('service'),
  reason: z
    .string({ invalid_type_error: 'reason must be text' })
    .trim()
    .min(1, 'A hold needs a reason people will read on the ladder')
    .transform(reason => reason.slice(0, MAX_HOLD_REASON_CHARS)),
});

/** A rejection's or a withdrawal's reason goes into the PR comment whole, so it is bounded rather than cut. */
export const MAX_REJECT_REASON_CHARS = 1000;

/** `{reason}` for closing a promotion, required with `missing` as the message when absent or blank. */
const closingReasonBody = (missing: string) =>
  z.object({
    reason: z
      .string({ required_error: missing, invalid_type_error: 'reason must be text' })
      .trim()
      .min(1, missing)
      .max(MAX_REJECT_REASON_CHARS, `reason must be at most ${MAX_REJECT_REASON_CHARS} characters`),
  });

export const rejectBody = closingReasonBody('A rejection needs a reason for the requester');

export const withdrawBody = closingReasonBody('A withdrawal needs a reason, for the pull request and the trail');

/** An incident id and link are shown on the ladder and in reasons: bounded. */
export const MAX_INCIDENT_ID_CHARS = 200;
export const MAX_INCIDENT_URL_CHARS = 2000;

/** An incident report, from the events topic `promotions.incidents` or `POST /incidents`. */
export const incidentReportBody = z.object({
  product: z.custom<string>(
    value => typeof value === 'string' && parseProductRef(value) !== undefined,
    'product must be a Product as team/product (lowercase letters, digits and -)',
  ),
  id: z
    .string({ required_error: 'id is required', invalid_type_error: 'id must be text' })
    .trim()
    .min(1, 'id must not be empty')
    .max(MAX_INCIDENT_ID_CHARS, `id is limited to ${MAX_INCIDENT_ID_CHARS} characters`),
  state: z.enum(['open', 'resolved'], { errorMap: () => ({ message: "state must be 'open' or 'resolved'" }) }),
  url: z
    .string({ required_error: 'url is required', invalid_type_error: 'url must be text' })
    .max(MAX_INCIDENT_URL_CHARS, `url is limited to ${MAX_INCIDENT_URL_CHARS} characters`)
    .url('url must be an http(s) link to the incident')
    .refine(url => /^https?:\/\//i.test(url), 'url must be an http(s) link to the incident'),
});

const MAX_ISSUES_SHOWN = 3;

/** `services[0]`, `services.storefront`; a key that is no plain word is quoted, cut short. */
function fieldPathPart(part: string | number): string {
  if (typeof part === 'number') return `[${part}]`;
  return /^[\w-]{1,64}$/.test(part) ? `.${part}` : `.${boundedQuote(part)}`;
}

/**
 * The body as the schema types it, or 400 saying what is wrong. Types are
 * checked before any rule looks at a value, and the message names at most a
 * few fields, each cut short, whatever the body holds.
 */
export function parseBody<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, body: unknown, shape: string): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issues = result.error.issues.slice(0, MAX_ISSUES_SHOWN).map(issue => {
    const where = issue.path.map(fieldPathPart).join('').replace(/^\./, '');
    return where ? `${issue.message} (at ${where})` : issue.message;
  });
  throw new InputError(`Expected a JSON body ${shape}: ${issues.join('; ')}`);
}
