import type { Router } from 'express';
import { isHexSha } from '../../git/gitRepo';
import { TreeEdit } from '../../git/types';
import { GithubContext, repoApiUrl } from '../context';
import {
  GithubError,
  notFound,
  requireString,
  validationFailed,
} from '../errors';
import { callerLogin } from '../responder';
import { paginate } from '../pagination';
import { gitCommitJson, nowIso, refJson } from '../shapes';
import { identityFrom, resolveRef, route, wildcard } from '../routeHelpers';

/** The git data API: refs, trees, blobs, commits. */
export function registerGitDataRoutes(
  router: Router,
  ctx: GithubContext,
): void {
  registerRefRoutes(router, ctx);
  registerObjectRoutes(router, ctx);
}

function registerRefRoutes(router: Router, ctx: GithubContext): void {
  router.get(
    '/git/ref/*',
    route(async (req, res) => {
      const ref = `refs/${wildcard(req)}`;
      const sha = await ctx.repo.readRef(ref);
      if (!sha) throw notFound();
      ctx.responder.json(req, res, 200, refJson(ctx, ref, sha));
    }),
  );

  router.get(
    '/git/matching-refs/*',
    route(async (req, res) => {
      const prefix = `refs/${wildcard(req)}`;
      const refs = (await ctx.repo.listRefs(prefix)).map(({ ref, sha }) =>
        refJson(ctx, ref, sha),
      );
      ctx.responder.json(req, res, 200, paginate(req, res, refs));
    }),
  );

  // The legacy listing form: exact ref → object, prefix → array.
  router.get(
    ['/git/refs', '/git/refs/*'],
    route(async (req, res) => {
      const prefix = `refs/${wildcard(req)}`.replace(/\/$/, '');
      const refs = await ctx.repo.listRefs(prefix);
      const exact = refs.find(entry => entry.ref === prefix);
      if (exact) {
        ctx.responder.json(req, res, 200, refJson(ctx, exact.ref, exact.sha));
        return;
      }
      const matching = refs.filter(entry => entry.ref.startsWith(`${prefix}/`));
      if (matching.length === 0) throw notFound();
      ctx.responder.json(
        req,
        res,
        200,
        paginate(
          req,
          res,
          matching.map(({ ref, sha }) => refJson(ctx, ref, sha)),
        ),
      );
    }),
  );

  router.post(
    '/git/refs',
    route(async (req, res) => {
      const ref = requireString(req.body, 'ref');
      const sha = requireString(req.body, 'sha');
      if (
        !/^refs\/[^/]+\/.+/.test(ref) ||
        ref.includes('..') ||
        /[\s~^:?*[\\]/.test(ref)
      ) {
        throw new GithubError(422, `${ref} is not a valid ref name.`);
      }
      const created = await ctx.lock.run(async () => {
        if (!isHexSha(sha) || (await ctx.repo.objectType(sha)) !== 'commit') {
          throw new GithubError(422, 'Object does not exist');
        }
        const ok = await ctx.repo.updateRef(ref, sha, null);
        if (!ok) throw new GithubError(422, 'Reference already exists');
        return refJson(ctx, ref, sha);
      });
      ctx.responder.json(req, res, 201, created);
    }),
  );

  router.patch(
    '/git/refs/*',
    route(async (req, res) => {
      const ref = `refs/${wildcard(req)}`;
      const sha = requireString(req.body, 'sha');
      const force = req.body?.force === true;
      const updated = await ctx.lock.run(async () => {
        const current = await ctx.repo.readRef(ref);
        if (!current) throw new GithubError(422, 'Reference does not exist');
        if (!isHexSha(sha) || (await ctx.repo.objectType(sha)) !== 'commit') {
          throw new GithubError(422, 'Object does not exist');
        }
        if (!force && !(await ctx.repo.isAncestor(current, sha))) {
          throw new GithubError(422, 'Update is not a fast forward');
        }
        if (!(await ctx.repo.updateRef(ref, sha, current)))
          throw new GithubError(422, 'Reference cannot be updated');
        return refJson(ctx, ref, sha);
      });
      ctx.responder.json(req, res, 200, updated);
    }),
  );

  router.delete(
    '/git/refs/*',
    route(async (req, res) => {
      const ref = `refs/${wildcard(req)}`;
      await ctx.lock.run(async () => {
        const current = await ctx.repo.readRef(ref);
        if (!current || !(await ctx.repo.deleteRef(ref, current)))
          throw new GithubError(422, 'Reference does not exist');
      });
      ctx.responder.empty(req, res, 204);
    }),
  );
}

function registerObjectRoutes(router: Router, ctx: GithubContext): void {
  router.get(
    '/git/trees/:sha',
    route(async (req, res) => {
      const treeish = req.params.sha;
      const commit = isHexSha(treeish) ? null : await resolveRef(ctx, treeish);
      const tree = await ctx.repo.resolveTree(commit ?? treeish);
      if (!tree) throw notFound();
      // GitHub recurses for any value of `recursive`, "0" and "false" included.
      const recursive = req.query.recursive !== undefined;
      const entries = await ctx.repo.listTree(tree, {
        recursive,
        withTrees: true,
      });
      const api = repoApiUrl(ctx);
      // GitHub answers at most its entry limit and says the rest is missing.
      const truncated = entries.length > ctx.treeEntryLimit;
      ctx.responder.json(req, res, 200, {
        sha: tree,
        url: `${api}/git/trees/${tree}`,
        tree: entries.slice(0, ctx.treeEntryLimit).map(entry => ({
          path: entry.path,
          mode: entry.mode,
          type: entry.type,
          sha: entry.sha,
          ...(entry.size !== undefined ? { size: entry.size } : {}),
          url: `${api}/git/${entry.type === 'tree' ? 'trees' : 'blobs'}/${entry.sha}`,
        })),
        truncated,
      });
    }),
  );

  router.get(
    '/git/blobs/:sha',
    route(async (req, res) => {
      const sha = req.params.sha;
      if ((await ctx.repo.objectType(sha)) !== 'blob') throw notFound();
      const content = await ctx.repo.readBlob(sha);
      ctx.responder.json(req, res, 200, {
        sha,
        node_id: Buffer.from(`B_${sha}`).toString('base64'),
        size: content.length,
        url: `${repoApiUrl(ctx)}/git/blobs/${sha}`,
        content: content.toString('base64'),
        encoding: 'base64',
      });
    }),
  );

  router.post(
    '/git/blobs',
    route(async (req, res) => {
      const content = req.body?.content;
      if (typeof content !== 'string')
        throw validationFailed([
          { resource: 'Blob', field: 'content', code: 'missing_field' },
        ]);
      const bytes =
        req.body?.encoding === 'base64'
          ? Buffer.from(content, 'base64')
          : Buffer.from(content, 'utf8');
      const sha = await ctx.repo.writeBlob(bytes);
      ctx.responder.json(req, res, 201, {
        sha,
        url: `${repoApiUrl(ctx)}/git/blobs/${sha}`,
      });
    }),
  );

  router.post(
    '/git/trees',
    route(async (req, res) => {
      const items = req.body?.tree;
      if (!Array.isArray(items))
        throw validationFailed([
          { resource: 'Tree', field: 'tree', code: 'missing_field' },
        ]);
      let baseTree: string | null = null;
      if (typeof req.body.base_tree === 'string') {
        baseTree = await ctx.repo.resolveTree(req.body.base_tree);
        if (!baseTree)
          throw new GithubError(422, 'base_tree is not a valid tree oid');
      }
      const edits: TreeEdit[] = [];
      for (const item of items) {
        if (typeof item?.path !== 'string')
          throw validationFailed([
            { resource: 'Tree', field: 'path', code: 'missing_field' },
          ]);
        if (typeof item.content === 'string') {
          edits.push({
            path: item.path,
            mode: item.mode ?? '100644',
            sha: await ctx.repo.writeBlob(item.content),
          });
        } else if (item.sha === null) {
          edits.push({ path: item.path, sha: null });
        } else if (
          typeof item.sha === 'string' &&
          (await ctx.repo.objectType(item.sha))
        ) {
          edits.push({
            path: item.path,
            mode: item.mode ?? '100644',
            sha: item.sha,
          });
        } else {
          throw new GithubError(
            422,
            `tree.sha ${item.sha} is not a valid blob`,
          );
        }
      }
      const tree = await ctx.repo.writeTree(baseTree, edits);
      const entries = await ctx.repo.listTree(tree, { recursive: false });
      const api = repoApiUrl(ctx);
      ctx.responder.json(req, res, 201, {
        sha: tree,
        url: `${api}/git/trees/${tree}`,
        tree: entries.map(entry => ({
          path: entry.path,
          mode: entry.mode,
          type: entry.type,
          sha: entry.sha,
          size: entry.size,
          url: `${api}/git/${entry.type}s/${entry.sha}`,
        })),
        truncated: false,
      });
    }),
  );

  router.post(
    '/git/commits',
    route(async (req, res) => {
      const message = requireString(req.body, 'message');
      const tree = requireString(req.body, 'tree');
      const parents: unknown = req.body?.parents ?? [];
      if (!Array.isArray(parents) || parents.some(p => typeof p !== 'string')) {
        throw validationFailed([
          { resource: 'Commit', field: 'parents', code: 'invalid' },
        ]);
      }
      if ((await ctx.repo.objectType(tree)) !== 'tree')
        throw new GithubError(422, 'Tree SHA does not exist');
      for (const parent of parents as string[]) {
        if ((await ctx.repo.objectType(parent)) !== 'commit')
          throw new GithubError(
            422,
            'Parent SHA does not exist or is not a commit object',
          );
      }
      const user = ctx.users.getOrCreate(callerLogin(res));
      const fallback = { name: user.name, email: user.email, date: nowIso() };
      const author = identityFrom(req.body?.author, fallback);
      const committer = identityFrom(req.body?.committer, author);
      const sha = await ctx.repo.writeCommit({
        tree,
        parents: parents as string[],
        message,
        author,
        committer,
      });
      const commit = await ctx.repo.readCommit(sha);
      ctx.responder.json(req, res, 201, gitCommitJson(ctx, commit!));
    }),
  );

  router.get(
    '/git/commits/:sha',
    route(async (req, res) => {
      const sha = req.params.sha;
      if ((await ctx.repo.objectType(sha)) !== 'commit') throw notFound();
      const commit = await ctx.repo.readCommit(sha);
      ctx.responder.json(req, res, 200, gitCommitJson(ctx, commit!));
    }),
  );
}
