import { mockLogger, userCredentials } from '../__testUtils__/lightServices';
import { ConfigReader } from '@backstage/config';
import { Entity } from '@backstage/catalog-model';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { readPromotionsConfig } from '../config';
import { CatalogApproverDirectory } from '../service/CatalogApproverDirectory';
import { ApprovalRights } from './ApprovalRights';

const SHOP = { team: 'alpha', product: 'shop' };

const user = (name: string, groups: string[]): Entity => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'User',
  metadata: { name, namespace: 'default' },
  spec: { memberOf: groups },
  relations: groups.map(group => ({ type: 'memberOf', targetRef: `group:default/${group}` })),
});

function rights(annotations: Record<string, string>, productApprovers = 'add') {
  const logger = mockLogger();
  const config = readPromotionsConfig(
    new ConfigReader({ promotions: { platformRepo: { owner: 'o', repo: 'r' }, approval: { productApprovers } } }),
  );
  return {
    logger,
    rights: new ApprovalRights({
      config,
      owners: { approvalAnnotations: async () => annotations },
      directory: new CatalogApproverDirectory(
        catalogServiceMock({ entities: [user('alice', ['release-approvers']), user('dave', ['shop-release'])] }),
      ),
      logger,
    }),
  };
}

describe('ApprovalRights', () => {
  it("logs a bad annotation entry once, and applies the rest of the Product's policy", async () => {
    const { rights: approval, logger } = rights({
      'refplat.org/approvers': 'shop-release, user:default/bob',
      'refplat.org/approval-quorum': 'prod=0',
    });
    for (let i = 0; i < 3; i++) {
      expect(await approval.policyOf(SHOP)).toEqual({
        approvers: ['group:default/release-approvers', 'group:default/shop-release'],
        quorum: {},
      });
    }
    expect(logger.warn).toHaveBeenCalledTimes(2);
    expect(logger.warn).toHaveBeenCalledWith(
      "The System of alpha/shop: refplat.org/approvers: 'user:default/bob' is not a Group; ignored",
    );
    expect(logger.warn).toHaveBeenCalledWith(
      'The System of alpha/shop: refplat.org/approval-quorum: prod=0 is not a whole number of at least 1; ignored',
    );
  });

  it("requires membership of the Product's approvers, the global ones gone with 'replace'", async () => {
    const { rights: approval } = rights({ 'refplat.org/approvers': 'shop-release' }, 'replace');
    await expect(approval.require(userCredentials('user:default/dave'), SHOP)).resolves.toMatchObject({
      approvers: ['group:default/shop-release'],
    });
    await expect(approval.require(userCredentials('user:default/alice'), SHOP, 'rejections')).rejects.toThrow(
      'alice is not a release-approver: rejections need membership of shop-release',
    );
  });
});
