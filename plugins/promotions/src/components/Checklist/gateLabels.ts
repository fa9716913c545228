import { PromotionGate, gateBlocks } from '@refplat/plugin-promotions-common';

/** Each gate of a promotion from `from` into `to`, as a person would check it. */
export function gateLabel(gate: PromotionGate, from: string, to: string): string {
  const labels: Record<PromotionGate, string> = {
    declared: `Declared in ${to}`,
    released: `Released in ${from}`,
    health: `Healthy in ${from}`,
    'running-digest': `Running in ${from}`,
    soak: `Soaked in ${from}`,
    hold: `Not frozen in ${to}`,
    policy: `Policy allows ${to}`,
    'open-promotion': `No other promotion into ${to}`,
    approval: 'Approval',
    carried: 'Something to promote',
  };
  return labels[gate] ?? gate;
}

/**
 * How a gate reads: passed, blocking, or neither — the approval rule only
 * informs, and "already carried" means there is nothing to promote, not
 * that something is wrong.
 */
export type GateLook = 'ok' | 'blocked' | 'info';

export function gateLook(item: { gate: PromotionGate; ok: boolean }): GateLook {
  if (gateBlocks(item)) return 'blocked';
  return item.ok && item.gate !== 'approval' ? 'ok' : 'info';
}
