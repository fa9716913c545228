import express, { Router } from 'express';
import { GithubStore } from '../github/store';
import { escapeHtml } from './html';

/**
 * A stand-in for github.com pages, so html_url links in the UI lead somewhere:
 * a pull request shows its title and state; anything else a short note.
 */
export function createWebRouter(
  store: GithubStore,
  owner: string,
  repo: string,
): Router {
  const router = express.Router();
  router.get(`/${owner}/${repo}/pull/:number`, (req, res) => {
    const pull = store.pull(Number(req.params.number));
    if (!pull) {
      res.status(404).type('text/html').send('<h1>Pull request not found</h1>');
      return;
    }
    const state = pull.mergedAt ? 'merged' : pull.state;
    res
      .type('text/html')
      .send(
        `<!doctype html><title>#${pull.number} ${escapeHtml(pull.title)}</title>` +
          `<h1>#${pull.number} ${escapeHtml(pull.title)}</h1><p>State: <b>${state}</b> — ${escapeHtml(pull.headRef)} → ${escapeHtml(pull.baseRef)} by ${escapeHtml(pull.userLogin)}</p>` +
          `<pre>${escapeHtml(pull.body ?? '')}</pre><p><i>platform-sim: simulated GitHub</i></p>`,
      );
  });
  router.use((req, res) => {
    res
      .type('text/html')
      .send(
        `<p>platform-sim: simulated GitHub page for <code>${escapeHtml(req.path)}</code></p>`,
      );
  });
  return router;
}
