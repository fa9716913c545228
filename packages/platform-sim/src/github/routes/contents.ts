import type { Request, Router } from 'express';
import { TreeEntry } from '../../git/types';
import { GithubContext, repoApiUrl, repoHtmlUrl } from '../context';
import {
  GithubError,
  notFound,
  requireString,
  validationFailed,
} from '../errors';
import { callerLogin } from '../responder';
import { gitCommitJson, nowIso } from '../shapes';
import {
  branchHead,
  identityFrom,
  resolveRef,
  route,
  wildcard,
} from '../routeHelpers';

/** GET/PUT/DELETE /repos/{o}/{r}/contents/{path}. */
export function registerContentsRoutes(
  router: Router,
  ctx: GithubContext,
): void {
  const get = route(async (req, res) => {
    const filePath = trimPath(wildcard(req));
    const ref =
      typeof req.query.ref === 'string' && req.query.ref
        ? req.query.ref
        : 'main';
    const commit = await resolveRef(ctx, ref);
    if (!commit) throw notFound(`No commit found for the ref ${ref}`);
    if (!filePath) {
      const entries = await ctx.repo.listTree(commit);
      ctx.responder.json(
        req,
        res,
        200,
        entries.map(entry => entryJson(ctx, entry, entry.path, ref)),
      );
      return;
    }
    const entry = await ctx.repo.entryAt(commit, filePath);
    if (!entry) throw notFound();
    if (entry.type === 'tree') {
      const entries = await ctx.repo.listTree(commit, { dir: filePath });
      ctx.responder.json(
        req,
        res,
        200,
        entries.map(child =>
          entryJson(ctx, child, `${filePath}/${child.path}`, ref),
        ),
      );
      return;
    }
    const content = await ctx.repo.readBlob(entry.sha);
    if (/vnd\.github(\.v3)?\.raw/.test(String(req.headers.accept ?? ''))) {
      ctx.responder.raw(req, res, content);
      return;
    }
    ctx.responder.json(req, res, 200, {
      ...entryJson(ctx, entry, filePath, ref),
      encoding: 'base64',
      content: wrapBase64(content.toString('base64')),
    });
  });
  router.get('/contents', get);
  router.get('/contents/*', get);

  router.put(
    '/contents/*',
    route(async (req, res) => {
      const filePath = trimPath(wildcard(req));
      const message = requireString(req.body, 'message');
      const encoded = requireString(req.body, 'content');
      if (!/^[A-Za-z0-9+/=\s]*$/.test(encoded)) {
        throw validationFailed(
          [{ resource: 'Body', field: 'content', code: 'invalid' }],
          'content is not valid Base64',
        );
      }
      const content = Buffer.from(encoded, 'base64');
      const result = await ctx.lock.run(() =>
        writeFile(ctx, req, filePath, content, message, callerLogin(res)),
      );
      ctx.responder.json(req, res, result.created ? 201 : 200, {
        content: {
          ...entryJson(
            ctx,
            {
              mode: '100644',
              type: 'blob',
              sha: result.blob,
              path: filePath,
              size: content.length,
            },
            filePath,
            result.branch,
          ),
        },
        commit: gitCommitJson(ctx, result.commit),
      });
    }),
  );

  router.delete(
    '/contents/*',
    route(async (req, res) => {
      const filePath = trimPath(wildcard(req));
      const message = requireString(req.body, 'message');
      const result = await ctx.lock.run(() =>
        writeFile(ctx, req, filePath, null, message, callerLogin(res)),
      );
      ctx.responder.json(req, res, 200, {
        content: null,
        commit: gitCommitJson(ctx, result.commit),
      });
    }),
  );
}

/** The checks GitHub makes (branch exists, blob sha matches) and the commit, under the write lock. */
async function writeFile(
  ctx: GithubContext,
  req: Request,
  filePath: string,
  content: Buffer | null,
  message: string,
  login: string,
) {
  const branch =
    typeof req.body?.branch === 'string' && req.body.branch
      ? req.body.branch
      : 'main';
  const head = await branchHead(ctx, branch);
  if (!head) throw notFound(`Branch ${branch} not found`);
  const current = await ctx.repo.entryAt(head, filePath);
  const suppliedSha =
    typeof req.body?.sha === 'string' ? req.body.sha : undefined;
  if (content === null && !current) throw notFound();
  if (current && !suppliedSha) {
    throw validationFailed(
      [{ resource: 'Body', field: 'sha', code: 'missing_field' }],
      'Invalid request.\n\n"sha" wasn\'t supplied.',
    );
  }
  if (suppliedSha && current?.sha !== suppliedSha) {
    throw new GithubError(409, `${filePath} does not match ${suppliedSha}`);
  }
  const user = ctx.users.getOrCreate(login);
  const date = nowIso();
  const committer = identityFrom(req.body?.committer, {
    name: user.name,
    email: user.email,
    date,
  });
  const author = identityFrom(req.body?.author, committer);
  const result = await ctx.committer.commitFilesLocked({
    branch,
    files: [{ path: filePath, content }],
    message,
    author,
    committer,
    expectedHead: head,
  });
  if (result.kind !== 'committed')
    throw new GithubError(
      409,
      `${filePath} does not match ${suppliedSha ?? 'the branch head'}`,
    );
  const commit = await ctx.repo.readCommit(result.commit);
  if (!commit) throw new Error(`commit ${result.commit} vanished`);
  return {
    created: !current,
    blob: result.blobs[filePath] ?? '',
    commit,
    branch,
  };
}

const CONTENT_TYPES: Record<string, string> = {
  tree: 'dir',
  commit: 'submodule',
  blob: 'file',
};

function entryJson(
  ctx: GithubContext,
  entry: TreeEntry,
  fullPath: string,
  ref: string,
): Record<string, unknown> {
  const api = repoApiUrl(ctx);
  const type = CONTENT_TYPES[entry.type] ?? 'file';
  const self = `${api}/contents/${fullPath}?ref=${ref}`;
  const git =
    entry.type === 'tree'
      ? `${api}/git/trees/${entry.sha}`
      : `${api}/git/blobs/${entry.sha}`;
  const html = `${repoHtmlUrl(ctx)}/${type === 'dir' ? 'tree' : 'blob'}/${ref}/${fullPath}`;
  return {
    type,
    size: entry.size ?? 0,
    name: fullPath.split('/').pop(),
    path: fullPath,
    sha: entry.sha,
    url: self,
    git_url: git,
    html_url: html,
    download_url:
      type === 'file' ? `${repoHtmlUrl(ctx)}/raw/${ref}/${fullPath}` : null,
    _links: { self, git, html },
  };
}

/** GitHub wraps base64 content at 60 characters per line. */
function wrapBase64(value: string): string {
  return `${value.replace(/.{60}/g, '$&\n')}\n`.replace(/\n\n$/, '\n');
}

function trimPath(value: string): string {
  return value.replace(/^\/+|\/+$/g, '');
}
