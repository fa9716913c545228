import { ApplicationState } from '../world/applicationState';
import { applicationHealth, runningImages } from '../world/liveObjects';
import { viewRollout } from '../world/rolloutView';
import { World } from '../world/world';
import { escapeHtml } from '../http/html';

/**
 * A stand-in for Argo CD's Application page (`/applications/<namespace>/<name>`),
 * so the ladder's "ArgoCD Application" links lead somewhere in the demo: the
 * Application's health, sync status, running images and each Rollout's canary.
 */
export function renderApplicationPage(app: ApplicationState, world: World): string {
  const health = applicationHealth(app, world).status;
  const sync = app.overrides.sync ?? app.syncStatus;
  const stepCount = world.plan.weights.length * 2;
  const rollouts = [...app.rollouts.values()].map(rollout => {
    const view = viewRollout(rollout, world.plan);
    const step = view.phase === 'Healthy' ? 'done' : `step ${view.currentStepIndex} of ${stepCount}`;
    return (
      `<tr><td>${escapeHtml(rollout.name)}</td><td>${view.phase}</td><td>${step}</td>` +
      `<td>${view.canaryWeight}%</td><td>${escapeHtml(view.message)}</td></tr>`
    );
  });
  const images = runningImages(app, world).map(image => `<li><code>${escapeHtml(image)}</code></li>`);
  const title = escapeHtml(app.name);
  return (
    `<!doctype html><title>${title} - Argo CD</title>` +
    `<h1>Application ${title}</h1>` +
    `<p>Health: <b data-testid="health">${escapeHtml(health)}</b> · Sync: <b data-testid="sync">${escapeHtml(sync)}</b> · ` +
    `Namespace: ${escapeHtml(app.namespace)}</p>` +
    `<h2>Images</h2><ul>${images.join('')}</ul>` +
    '<h2>Rollouts</h2><table><tr><th>Rollout</th><th>Phase</th><th>Canary step</th><th>Canary weight</th><th>Message</th></tr>' +
    `${rollouts.join('')}</table>` +
    '<p><i>platform-sim: simulated Argo CD</i></p>'
  );
}
