import { createBackend } from '@backstage/backend-defaults';
import { demoAuthProviderModule } from './modules/demoAuthProvider';
import { promotionsPermissionPolicyModule } from './modules/permissionPolicy';

const backend = createBackend();

backend.add(import('@backstage/plugin-app-backend'));

backend.add(import('@backstage/plugin-auth-backend'));
// GitHub sign-in where auth.providers.github is configured (app-config.production.yaml);
// the demo sign-in (app-config.yaml) only in development, never in production.
backend.add(import('@backstage/plugin-auth-backend-module-github-provider'));
backend.add(demoAuthProviderModule);

backend.add(import('@backstage/plugin-catalog-backend'));
// The Template kind, for the demo template (examples/templates).
backend.add(import('@backstage/plugin-catalog-backend-module-scaffolder-entity-model'));

// Software templates, with promotions:request for putting Services on the ladder.
backend.add(import('@backstage/plugin-scaffolder-backend'));
backend.add(import('@refplat/plugin-scaffolder-backend-module-promotions'));

backend.add(import('@backstage/plugin-permission-backend'));
backend.add(promotionsPermissionPolicyModule);

// Signals ride on events; the events backend carries them between replicas.
backend.add(import('@backstage/plugin-events-backend'));
// GitHub webhooks at /api/events/http/github, verified with events.modules.github.webhookSecret
// and published as github.<event>; the promotions backend reacts to push, pull_request and status.
backend.add(import('@backstage/plugin-events-backend-module-github'));
backend.add(import('@backstage/plugin-signals-backend'));
backend.add(import('@backstage/plugin-notifications-backend'));

backend.add(import('@refplat/plugin-promotions-backend'));
// The registered actions (backend.actions.pluginSources) as MCP tools at /api/mcp-actions/v1.
backend.add(import('@backstage/plugin-mcp-actions-backend'));

backend.start();
