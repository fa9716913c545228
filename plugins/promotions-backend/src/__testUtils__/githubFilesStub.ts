import http from 'http';
import { AddressInfo } from 'net';
import type { PlatformRepoFiles } from '@refplat/plugin-promotions-node';

/**
 * GitHub's read API for the platform repo's files, answered from `files`
 * (an InMemoryPlatformRepo, say): the branch head, a commit's tree and its
 * blobs, which is all a ladder view reads. Anything else is answered 404
 * and listed in `unanswered`, so a test can say it wrote nothing.
 */
export async function startGithubFilesStub(files: PlatformRepoFiles) {
  const unanswered: string[] = [];
  const answer = async (path: string): Promise<object | undefined> => {
    if (/^\/repos\/[^/]+\/[^/]+\/commits\/heads\/[^/]+$/.test(path)) {
      // No parents: the reader reads the head's tree rather than deriving its index.
      return { sha: await files.headCommit(), parents: [], files: [] };
    }
    const tree = path.match(/^\/repos\/[^/]+\/[^/]+\/git\/trees\/([0-9a-f]+)$/);
    if (tree) {
      const index = await files.fileIndex(tree[1]);
      return { truncated: false, tree: Object.entries(index).map(([file, sha]) => ({ path: file, type: 'blob', sha })) };
    }
    const blob = path.match(/^\/repos\/[^/]+\/[^/]+\/git\/blobs\/([0-9a-f]+)$/);
    if (blob) {
      return { encoding: 'base64', content: Buffer.from(await files.readBlob(blob[1])).toString('base64') };
    }
    return undefined;
  };
  const server = http.createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://stub').pathname);
    answer(req.method === 'GET' ? path : '')
      .catch(() => undefined)
      .then(body => {
        if (!body) unanswered.push(`${req.method} ${path}`);
        res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body ?? { message: 'Not Found' }));
      });
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    /** The host and API base URL for `integrations.github`. */
    host: `127.0.0.1:${port}`,
    apiBaseUrl: `http://127.0.0.1:${port}`,
    unanswered,
    stop: () => new Promise<void>(resolve => server.close(() => resolve())),
  };
}
