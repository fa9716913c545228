// One gate of "why can't I promote?", as the ladder carries it: types only,
// so the ladder's types need not import the checklist rule.

/** @public */
export type PromotionGate =
  | 'declared'
  | 'released'
  | 'health'
  | 'running-digest'
  | 'soak'
  | 'hold'
  /** One per promotion guard (freeze windows, adopters' own rules). */
  | 'policy'
  | 'open-promotion'
  | 'approval'
  | 'carried';

/** @public */
export interface PromotionChecklistItem {
  gate: PromotionGate;
  /** Whether the gate lets the promotion through (`approval` is informational: always true). */
  ok: boolean;
  detail: string;
}
