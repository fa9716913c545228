import express, { Router } from 'express';
import { GithubContext } from '../github/context';
import { escapeHtml } from './html';

/**
 * A stand-in for github.com's commit and repository pages, for every
 * repository the simulator serves: `/<owner>/<repo>/commit/<sha>` shows the
 * commit's message, author and changed files; `/<owner>/<repo>` its recent
 * history. Where a provenance's source repository or a compare's `html_url`
 * links, offline. Anything else falls through.
 */
export function createCommitPages(repository: (owner: string, name: string) => GithubContext | undefined): Router {
  const router = express.Router();
  router.get('/:owner/:repo/commit/:sha', async (req, res, next) => {
    const ctx = repository(req.params.owner, req.params.repo);
    if (!ctx) return next();
    const commit = /^[0-9a-f]{4,40}$/.test(req.params.sha) ? await ctx.repo.readCommit(req.params.sha) : null;
    if (!commit) {
      res.status(404).type('text/html').send('<h1>Commit not found</h1>');
      return;
    }
    const files = await ctx.repo.diff(commit.parents[0] ?? null, commit.sha);
    const [subject, ...body] = commit.message.split('\n');
    res
      .type('text/html')
      .send(
        `<!doctype html><title>${escapeHtml(subject)} · ${escapeHtml(`${ctx.owner}/${ctx.repoName}`)}@${commit.sha.slice(0, 7)}</title>` +
          `<p><a href="../../${encodeURIComponent(ctx.repoName)}">${escapeHtml(`${ctx.owner}/${ctx.repoName}`)}</a></p>` +
          `<h1>${escapeHtml(subject)}</h1><pre>${escapeHtml(body.join('\n').trim())}</pre>` +
          `<p>${escapeHtml(commit.author.name)} committed ${escapeHtml(commit.author.date)} · commit <code>${commit.sha}</code></p>` +
          `<ul>${files.map(file => `<li>${escapeHtml(file.status)} <code>${escapeHtml(file.filename)}</code><pre>${escapeHtml(file.patch ?? '')}</pre></li>`).join('')}</ul>` +
          `<p><i>platform-sim: simulated GitHub</i></p>`,
      );
  });
  router.get('/:owner/:repo', async (req, res, next) => {
    const ctx = repository(req.params.owner, req.params.repo);
    const head = ctx && (await ctx.repo.readRef('refs/heads/main'));
    if (!ctx || !head) return next();
    const commits = (await ctx.repo.log(head)).slice(0, 30);
    res
      .type('text/html')
      .send(
        `<!doctype html><title>${escapeHtml(`${ctx.owner}/${ctx.repoName}`)}</title><h1>${escapeHtml(`${ctx.owner}/${ctx.repoName}`)}</h1>` +
          `<p>${escapeHtml(ctx.description)}</p><ul>` +
          commits
            .map(commit => `<li><a href="${encodeURIComponent(ctx.repoName)}/commit/${commit.sha}">${commit.sha.slice(0, 7)}</a> ${escapeHtml(commit.message.split('\n')[0])}</li>`)
            .join('') +
          `</ul><p><i>platform-sim: simulated GitHub</i></p>`,
      );
  });
  return router;
}
