import {
  BackstageCredentials,
  BackstageUserPrincipal,
  RootConfigService,
  UserInfoService,
} from '@backstage/backend-plugin-api';
import { NotAllowedError } from '@backstage/errors';
import {
  ProductChange,
  ProductRef,
  decideProductChange,
  formatProductRef,
} from '@refplat/plugin-promotions-common';
import { ProductOwners } from './ProductOwners';
import { productChangeRefusalText } from './productChangeRules';

/** `promotions.permissions.requireOwnership`: on unless an adopter widens it. */
export function readRequireOwnership(config: RootConfigService): boolean {
  return config.getOptionalBoolean('promotions.permissions.requireOwnership') ?? true;
}

/**
 * Enforces who may change a Product, on top of the permission policy: the
 * caller's ownership claims (their User and Groups, as sign-in resolved them
 * from the catalog) against the owners of the Product's System.
 */
export class ProductAccess {
  constructor(
    private readonly options: {
      userInfo: UserInfoService;
      owners: ProductOwners;
      /** The Product's approvers, who may make every change. */
      approvers: (product: ProductRef) => Promise<string[]>;
      approvalStages: string[];
      requireOwnership: boolean;
    },
  ) {}

  /** Throws 403 unless the caller may make the change; `stage` is the stage it touches. */
  async requireChange(
    credentials: BackstageCredentials<BackstageUserPrincipal>,
    product: ProductRef,
    change: ProductChange,
    stage?: string,
  ): Promise<void> {
    const { userInfo, owners, approvers, approvalStages, requireOwnership } = this.options;
    const { userEntityRef, ownershipEntityRefs } = await userInfo.getUserInfo(credentials);
    const productApprovers = await approvers(product);
    const decision = decideProductChange({
      change,
      claims: [userEntityRef, ...ownershipEntityRefs],
      owners: await owners.of(product),
      approvers: productApprovers,
      atApprovalStage: stage !== undefined && approvalStages.includes(stage),
      requireOwnership,
    });
    if (!decision.allowed) {
      const reason = productChangeRefusalText(decision.refusal, change, productApprovers);
      throw new NotAllowedError(`${userEntityRef} may not change ${formatProductRef(product)}: ${reason}`);
    }
  }
}
