import type { BackstageCredentials } from '@backstage/backend-plugin-api';
import type { ProductRef } from '@refplat/plugin-promotions-common';

/**
 * The owners of each Product and the annotations of its System that refine
 * its approval policy (`refplat.org/approvers`, `refplat.org/approval-quorum`).
 *
 * @public
 */
export interface ProductOwners {
  /** The owners' entity refs (Groups); none when the Product has no System or no owner. */
  of(product: ProductRef): Promise<string[]>;
  /** The System's approval annotations; undefined without a System. */
  approvalAnnotations(product: ProductRef): Promise<Record<string, string> | undefined>;
}

/**
 * An actor's name for people; synchronous, so it fits inside a transaction's decision.
 *
 * @public
 */
export type NameOf = (actor: string) => string;

/**
 * The directory of people and groups the plugin names in what people read
 * (pull request bodies and comments, notifications, reasons): their display
 * name, never their entity ref. The refs stay in stored data.
 *
 * @public
 */
export interface ActorNames {
  /** Looks the actors up at once; an actor it could not look up is called by its entity name. */
  namesOf(actors: Iterable<string | undefined>): Promise<NameOf>;
}

/**
 * A user as the approval rules see them: their ref and the Groups the directory says they are in.
 *
 * @public
 */
export interface ApproverCandidate {
  userEntityRef: string;
  /** Their User ref and their Groups. */
  claims: string[];
  /** Their name as the directory presents it, for messages. */
  name: string;
}

/**
 * Who a user is for the approval rules: their Group memberships and name.
 *
 * @public
 */
export interface ApproverDirectory {
  /** A user the directory does not know has only their own ref as claim and their entity name. */
  candidate(userEntityRef: string, credentials: BackstageCredentials): Promise<ApproverCandidate>;
}
