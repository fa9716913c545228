import { NotFoundError } from '@backstage/errors';
import { ProductRef, formatProductRef } from '@refplat/plugin-promotions-common';
import { PromotionsConfig } from '../config';
import type { PlatformRepoFiles } from '@refplat/plugin-promotions-node';
import { ProductRecords, readProductRecords } from '../ladder/readProductRecords';

/**
 * A Product exists when the platform repo has Release records or
 * Environments for it, as the ladder decides. Reading costs one conditional
 * request while the repo is unchanged (trees and blobs are cached by sha).
 */
export class KnownProducts {
  constructor(
    private readonly reader: PlatformRepoFiles,
    private readonly config: PromotionsConfig,
  ) {}

  /** The Product's records at the branch head, or 404. */
  async require(product: ProductRef): Promise<ProductRecords> {
    const index = await this.reader.fileIndex(await this.reader.headCommit());
    const records = await readProductRecords(this.reader, this.config, index, product);
    if (!records.exists) {
      throw new NotFoundError(
        `No Product ${formatProductRef(product)}: no Release records or Environments for it under ${this.config.releasesPath} or ${this.config.environmentsPath}`,
      );
    }
    return records;
  }
}
