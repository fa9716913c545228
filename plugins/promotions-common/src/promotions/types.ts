/** A promotion as the contract defines it: one Release PR into one stage. */
export type PromotionStatus =
  | 'open'
  | 'awaiting-approval'
  | 'approved'
  | 'merged'
  | 'closed'
  | 'failed';

export interface Promotion {
  id: string;
  team: string;
  product: string;
  fromStage: string;
  toStage: string;
  services: Record<string, string>;
  status: PromotionStatus;
  requestedBy: string;
  approvedBy?: string;
  pullRequest: { number: number; url: string };
  createdAt: string;
  updatedAt: string;
}
