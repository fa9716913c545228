import { LoggerService } from '@backstage/backend-plugin-api';
import { GuardContext, GuardPhase, GuardedPromotion, NamedGuardVerdict, isValidName } from '@refplat/plugin-promotions-common';
import type { PromotionGuard } from '@refplat/plugin-promotions-node';

/**
 * The guards the plugin runs: the built-in ones its config enables and those
 * backend modules added through the extension point.
 */
export class PromotionGuards {
  constructor(
    private readonly guards: PromotionGuard[],
    private readonly logger: LoggerService,
  ) {
    const seen = new Set<string>();
    for (const { name } of guards) {
      if (!isValidName(name) || seen.has(name)) {
        throw new Error(`Promotion guard names must be distinct lowercase names, got ${JSON.stringify(name)} twice or malformed`);
      }
      seen.add(name);
    }
  }

  get any(): boolean {
    return this.guards.length > 0;
  }

  /**
   * Every guard's verdict. A guard that throws blocks: a rule that cannot be
   * checked must not be skipped silently.
   */
  async evaluate(
    promotion: Omit<GuardedPromotion, 'kind'> & { kind?: GuardedPromotion['kind'] },
    phase: GuardPhase,
    now = new Date(),
    options: Pick<GuardContext, 'beforeMerge'> = {},
  ): Promise<NamedGuardVerdict[]> {
    // A copy of plain data: guards see only what is documented, and cannot change the record.
    const subject: GuardedPromotion = {
      ...(promotion.id ? { id: promotion.id } : {}),
      team: promotion.team,
      product: promotion.product,
      kind: promotion.kind ?? 'promotion',
      fromStage: promotion.fromStage,
      toStage: promotion.toStage,
      services: { ...promotion.services },
      requestedBy: promotion.requestedBy,
    };
    return Promise.all(
      this.guards.map(async guard => {
        try {
          return { guard: guard.name, ...(await guard.evaluate(subject, { phase, now, ...options })) };
        } catch (error) {
          this.logger.warn(`Promotion guard ${guard.name} failed: ${error}`);
          return { guard: guard.name, verdict: 'block' as const, reason: `The guard could not decide: ${error}` };
        }
      }),
    );
  }
}
