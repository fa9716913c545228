import type { PlatformRepo, PlatformRepoFiles } from '@refplat/plugin-promotions-node';

/**
 * A file's text and blob sha at `revision`: from the snapshot reader `files`
 * (its tree index and blob cache) when given and it has the file, else one
 * read of the platform repo.
 */
export async function releaseAtRevision(
  source: { writer: PlatformRepo; files?: PlatformRepoFiles },
  path: string,
  revision: string,
): Promise<{ text: string; blobSha: string }> {
  const { files, writer } = source;
  const blobSha = files && (await files.fileIndex(revision))[path];
  if (!files || !blobSha) return writer.readFile(path, revision);
  return { text: await files.readBlob(blobSha), blobSha };
}
