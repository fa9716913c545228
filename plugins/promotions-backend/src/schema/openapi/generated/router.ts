// Generated from plugins/promotions-backend/src/schema/openapi.yaml by its generate.js: do not edit.
/* eslint-disable */
import { createValidatedOpenApiRouterFromGeneratedEndpointMap } from '@backstage/backend-openapi-utils';
import type {
  ApprovalItem,
  AutoPromotionRecord,
  DeliveryMetricsResponse,
  Hold,
  HoldRequest,
  IncidentOutcome,
  IncidentReport,
  Ladder,
  LadderServiceCell,
  OverviewResponse,
  Promotion,
  PromotionEvent,
  PromotionRequest,
  PromotionResponse,
  ReasonRequest,
  RollbackRequest,
  StageChanges,
  StageHistoryEntry,
  StuckResponse,
  WriteQueueState,
} from '@refplat/plugin-promotions-common';

/** The routes as openapi.yaml declares them. */
export const spec = {
  openapi: '3.1.0',
  info: {
    title: 'promotions',
    version: '1',
    description:
      "The promotion ladder's HTTP routes, mounted at `/api/promotions`. Every route needs a\nBackstage token. Errors use Backstage's error body (`{error: {name, message}, request,\nresponse: {statusCode}}`), a path that is no route too (404). Bodies are JSON objects of\nat most 32 KiB (413 beyond) nested at most 8 levels; the backend checks each field's type\nbefore any rule looks at it. docs/http-api.md says what each answer means.\n\nThe routes' types come from this file: `npm run schema:generate --workspace\n@refplat/plugin-promotions-backend` writes the backend's typed router\n(`src/schema/openapi/generated`) and the client in `@refplat/plugin-promotions-common`.\n",
    license: {
      name: 'Apache-2.0',
      identifier: 'Apache-2.0',
    },
  },
  servers: [
    {
      url: '/',
    },
  ],
  tags: [
    {
      name: 'ladder',
    },
    {
      name: 'promotions',
    },
    {
      name: 'holds',
    },
    {
      name: 'organisation',
    },
  ],
  paths: {
    '/health': {
      get: {
        operationId: 'GetHealth',
        tags: ['organisation'],
        description:
          'Answers while the plugin runs (any user or service token).',
        responses: {
          '200': {
            description: 'The plugin runs.',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['status'],
                  properties: {
                    status: {
                      type: 'string',
                      const: 'ok',
                    },
                  },
                },
              },
            },
          },
          default: {
            $ref: '#/components/responses/ErrorResponse',
          },
        },
      },
    },
    '/products/{team}/{product}/ladder': {
      get: {
        operationId: 'GetLadder',
        tags: ['ladder'],
        description:
          "The Product's annotated ladder, one entry per stage, bottom first. With `detail=summary` each cell leaves out its `checks`, `checklist` and `diagnosis` for a `brief` of them (a third of the bytes); GetLadderCell answers one cell in full.",
        parameters: [
          {
            $ref: '#/components/parameters/team',
          },
          {
            $ref: '#/components/parameters/product',
          },
          {
            $ref: '#/components/parameters/ladderDetail',
          },
        ],
        responses: {
          '200': {
            description: 'The ladder.',
            content: {
              'application/json': {
                schema: {
                  $ref: '#/components/schemas/Ladder',
                },
              },
            },
          },
          default: {
            $ref: '#/components/responses/ErrorResponse',
          },
        },
      },
    },
    '/products/{team}/{product}/ladder/stages/{stage}/services/{service}': {
      get: {
        operationId: 'GetLadderCell',
        tags: ['ladder'],
        description:
          'One cell of the ladder in full (what the ladder route answers for it without `detail=summary`), with the same read permission; 404 for a stage or Service the ladder does not have there.',
        parameters: [
          {
            $ref: '#/components/parameters/team',
          },
          {
            $ref: '#/components/parameters/product',
          },
          {
            $ref: '#/components/parameters/stage',
          },
          {
            $ref: '#/components/parameters/service',
          },
        ],
        responses: {
          '200': {
            description: 'The cell.',
            content: {
              'application/json': {
                schema: {
                  $ref: '#/components/schemas/LadderServiceCell',
                },
              },
            },
          },
          default: {
            $ref: '#/components/responses/ErrorResponse',
          },
        },
      },
    },
    '/products/{team}/{product}/promotions': {
      get: {
        operationId: 'ListPromotions',
        tags: ['promotions'],
        description: "The Product's live and recent promotions, newest first.",
        parameters: [
          {
            $ref: '#/components/parameters/team',
          },
          {
            $ref: '#/components/parameters/product',
          },
        ],
        responses: {
          '200': {
            description: 'The promotions.',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['items'],
                  properties: {
                    items: {
                      type: 'array',
                      items: {
                        $ref: '#/components/schemas/Promotion',
                      },
                    },
                  },
                },
              },
            },
          },
          default: {
            $ref: '#/components/responses/ErrorResponse',
          },
        },
      },
      post: {
        operationId: 'RequestPromotion',
        tags: ['promotions'],
        description:
          'Promotes the stage below into `toStage`: 201 with a new Release PR, 200 with the identical promotion already open; 409 when the rules refuse.',
        parameters: [
          {
            $ref: '#/components/parameters/team',
          },
          {
            $ref: '#/components/parameters/product',
          },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                $ref: '#/components/schemas/PromotionRequest',
              },
            },
          },
        },
        responses: {
          '200': {
            $ref: '#/components/responses/PromotionOutcome',
          },
          '201': {
            $ref: '#/components/responses/PromotionOutcome',
          },
          default: {
            $ref: '#/components/responses/ErrorResponse',
          },
        },
      },
    },
    '/products/{team}/{product}/rollbacks': {
      post: {
        operationId: 'RequestRollback',
        tags: ['promotions'],
        description:
          'Rolls Services of a stage back to digests from its recent history, and holds them.',
        parameters: [
          {
            $ref: '#/components/parameters/team',
          },
          {
            $ref: '#/components/parameters/product',
          },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                $ref: '#/components/schemas/RollbackRequest',
              },
            },
          },
        },
        responses: {
          '200': {
            $ref: '#/components/responses/PromotionOutcome',
          },
          '201': {
            $ref: '#/components/responses/PromotionOutcome',
          },
          default: {
            $ref: '#/components/responses/ErrorResponse',
          },
        },
      },
    },
    '/products/{team}/{product}/holds': {
      get: {
        operationId: 'ListHolds',
        tags: ['holds'],
        description: "The Product's live holds.",
        parameters: [
          {
            $ref: '#/components/parameters/team',
          },
          {
            $ref: '#/components/parameters/product',
          },
        ],
        responses: {
          '200': {
            description: 'The holds.',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['items'],
                  properties: {
                    items: {
                      type: 'array',
                      items: {
                        $ref: '#/components/schemas/Hold',
                      },
                    },
                  },
                },
              },
            },
          },
          default: {
            $ref: '#/components/responses/ErrorResponse',
          },
        },
      },
      post: {
        operationId: 'PlaceHold',
        tags: ['holds'],
        description:
          'Holds a Service at a stage, so nothing promotes it there until the hold is lifted.',
        parameters: [
          {
            $ref: '#/components/parameters/team',
          },
          {
            $ref: '#/components/parameters/product',
          },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                $ref: '#/components/schemas/HoldRequest',
              },
            },
          },
        },
        responses: {
          '201': {
            $ref: '#/components/responses/HoldOutcome',
          },
          default: {
            $ref: '#/components/responses/ErrorResponse',
          },
        },
      },
    },
    '/products/{team}/{product}/holds/{stage}/{service}': {
      delete: {
        operationId: 'LiftHold',
        tags: ['holds'],
        description: 'Lifts (resumes) the hold on a Service at a stage.',
        parameters: [
          {
            $ref: '#/components/parameters/team',
          },
          {
            $ref: '#/components/parameters/product',
          },
          {
            $ref: '#/components/parameters/stage',
          },
          {
            $ref: '#/components/parameters/service',
          },
        ],
        responses: {
          '200': {
            $ref: '#/components/responses/HoldOutcome',
          },
          default: {
            $ref: '#/components/responses/ErrorResponse',
          },
        },
      },
    },
    '/products/{team}/{product}/auto-promotions': {
      get: {
        operationId: 'ListAutoPromotions',
        tags: ['promotions'],
        description:
          "The auto-promoter's latest run's decisions for the Product.",
        parameters: [
          {
            $ref: '#/components/parameters/team',
          },
          {
            $ref: '#/components/parameters/product',
          },
        ],
        responses: {
          '200': {
            description: 'The decisions.',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['items'],
                  properties: {
                    items: {
                      type: 'array',
                      items: {
                        $ref: '#/components/schemas/AutoPromotionRecord',
                      },
                    },
                  },
                },
              },
            },
          },
          default: {
            $ref: '#/components/responses/ErrorResponse',
          },
        },
      },
    },
    '/products/{team}/{product}/changes': {
      get: {
        operationId: 'GetChanges',
        tags: ['ladder'],
        description:
          'What promoting `from` into `to` would change, per Service, with the commits.',
        parameters: [
          {
            $ref: '#/components/parameters/team',
          },
          {
            $ref: '#/components/parameters/product',
          },
          {
            $ref: '#/components/parameters/fromStage',
          },
          {
            $ref: '#/components/parameters/toStage',
          },
        ],
        responses: {
          '200': {
            description: 'The changes.',
            content: {
              'application/json': {
                schema: {
                  $ref: '#/components/schemas/StageChanges',
                },
              },
            },
          },
          default: {
            $ref: '#/components/responses/ErrorResponse',
          },
        },
      },
    },
    '/products/{team}/{product}/stages/{stage}/history': {
      get: {
        operationId: 'GetStageHistory',
        tags: ['ladder'],
        description: "The stage's Release file history, newest first.",
        parameters: [
          {
            $ref: '#/components/parameters/team',
          },
          {
            $ref: '#/components/parameters/product',
          },
          {
            $ref: '#/components/parameters/stage',
          },
        ],
        responses: {
          '200': {
            description: 'The history.',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['items'],
                  properties: {
                    items: {
                      type: 'array',
                      items: {
                        $ref: '#/components/schemas/StageHistoryEntry',
                      },
                    },
                  },
                },
              },
            },
          },
          default: {
            $ref: '#/components/responses/ErrorResponse',
          },
        },
      },
    },
    '/promotions/{id}': {
      get: {
        operationId: 'GetPromotion',
        tags: ['promotions'],
        description: 'A promotion and its audit trail.',
        parameters: [
          {
            $ref: '#/components/parameters/id',
          },
        ],
        responses: {
          '200': {
            description: 'The promotion and its events.',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['promotion', 'events'],
                  properties: {
                    promotion: {
                      $ref: '#/components/schemas/Promotion',
                    },
                    events: {
                      type: 'array',
                      items: {
                        $ref: '#/components/schemas/PromotionEvent',
                      },
                    },
                  },
                },
              },
            },
          },
          default: {
            $ref: '#/components/responses/ErrorResponse',
          },
        },
      },
    },
    '/promotions/{id}/approve': {
      post: {
        operationId: 'ApprovePromotion',
        tags: ['promotions'],
        description: "Approves the promotion's current PR head.",
        parameters: [
          {
            $ref: '#/components/parameters/id',
          },
        ],
        requestBody: {
          required: false,
          description: 'Nothing is read from it; clients may send `{}`.',
          content: {
            'application/json': {
              schema: {
                type: 'object',
              },
            },
          },
        },
        responses: {
          '200': {
            $ref: '#/components/responses/PromotionResult',
          },
          default: {
            $ref: '#/components/responses/ErrorResponse',
          },
        },
      },
    },
    '/promotions/{id}/override': {
      post: {
        operationId: 'OverridePromotion',
        tags: ['promotions'],
        description:
          "A release-approver lifts the guards' blocks from an open promotion, with a reason.",
        parameters: [
          {
            $ref: '#/components/parameters/id',
          },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                $ref: '#/components/schemas/ReasonRequest',
              },
            },
          },
        },
        responses: {
          '200': {
            $ref: '#/components/responses/PromotionResult',
          },
          default: {
            $ref: '#/components/responses/ErrorResponse',
          },
        },
      },
    },
    '/promotions/{id}/reject': {
      post: {
        operationId: 'RejectPromotion',
        tags: ['promotions'],
        description:
          'A release-approver rejects a promotion awaiting approval; its PR is closed.',
        parameters: [
          {
            $ref: '#/components/parameters/id',
          },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                $ref: '#/components/schemas/ReasonRequest',
              },
            },
          },
        },
        responses: {
          '200': {
            $ref: '#/components/responses/PromotionResult',
          },
          default: {
            $ref: '#/components/responses/ErrorResponse',
          },
        },
      },
    },
    '/promotions/{id}/withdraw': {
      post: {
        operationId: 'WithdrawPromotion',
        tags: ['promotions'],
        description:
          "Its requester (or one of the Product's approvers) withdraws a live promotion; its PR is closed with a comment naming them and their reason.",
        parameters: [
          {
            $ref: '#/components/parameters/id',
          },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                $ref: '#/components/schemas/ReasonRequest',
              },
            },
          },
        },
        responses: {
          '200': {
            $ref: '#/components/responses/PromotionResult',
          },
          default: {
            $ref: '#/components/responses/ErrorResponse',
          },
        },
      },
    },
    '/approvals': {
      get: {
        operationId: 'ListApprovals',
        tags: ['organisation'],
        description:
          'The promotions awaiting an approval by the caller, oldest first (user tokens only).',
        responses: {
          '200': {
            description: 'The promotions.',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['items'],
                  properties: {
                    items: {
                      type: 'array',
                      items: {
                        $ref: '#/components/schemas/ApprovalItem',
                      },
                    },
                  },
                },
              },
            },
          },
          default: {
            $ref: '#/components/responses/ErrorResponse',
          },
        },
      },
    },
    '/metrics': {
      get: {
        operationId: 'GetMetrics',
        tags: ['organisation'],
        description:
          'Delivery metrics of a Product, a team or the organisation (readable Products only).',
        parameters: [
          {
            name: 'scope',
            in: 'query',
            allowReserved: true,
            description: '`product:<team>/<product>`, `team:<team>` or `org`.',
            schema: {
              type: 'string',
            },
          },
          {
            name: 'from',
            in: 'query',
            allowReserved: true,
            description: "The window's start (ISO date or time).",
            schema: {
              type: 'string',
            },
          },
          {
            name: 'to',
            in: 'query',
            allowReserved: true,
            description: "The window's end (ISO date or time).",
            schema: {
              type: 'string',
            },
          },
        ],
        responses: {
          '200': {
            description: 'The metrics.',
            content: {
              'application/json': {
                schema: {
                  $ref: '#/components/schemas/DeliveryMetricsResponse',
                },
              },
            },
          },
          default: {
            $ref: '#/components/responses/ErrorResponse',
          },
        },
      },
    },
    '/overview': {
      get: {
        operationId: 'GetOverview',
        tags: ['organisation'],
        description:
          "A page of the organisation's matrix, one row per readable Product.",
        parameters: [
          {
            name: 'owner',
            in: 'query',
            allowReserved: true,
            description: 'An entity ref; a bare name is a group.',
            schema: {
              type: 'string',
            },
          },
          {
            name: 'team',
            in: 'query',
            description: "A team's name.",
            schema: {
              type: 'string',
            },
          },
          {
            name: 'filter',
            in: 'query',
            schema: {
              type: 'string',
              enum: ['stuck', 'awaiting-approval', 'mine'],
            },
          },
          {
            name: 'cursor',
            in: 'query',
            allowReserved: true,
            description: "The previous page's nextCursor.",
            schema: {
              type: 'string',
            },
          },
          {
            name: 'limit',
            in: 'query',
            description: '1–200 rows (default 50).',
            schema: {
              type: 'string',
            },
          },
        ],
        responses: {
          '200': {
            description: 'The page.',
            content: {
              'application/json': {
                schema: {
                  $ref: '#/components/schemas/OverviewResponse',
                },
              },
            },
          },
          default: {
            $ref: '#/components/responses/ErrorResponse',
          },
        },
      },
    },
    '/stuck': {
      get: {
        operationId: 'ListStuck',
        tags: ['organisation'],
        description:
          'Every diagnosed-stuck deployment of the readable Products, the longest stuck first.',
        responses: {
          '200': {
            description: 'The stuck deployments.',
            content: {
              'application/json': {
                schema: {
                  $ref: '#/components/schemas/StuckResponse',
                },
              },
            },
          },
          default: {
            $ref: '#/components/responses/ErrorResponse',
          },
        },
      },
    },
    '/write-queue': {
      get: {
        operationId: 'GetWriteQueue',
        tags: ['organisation'],
        description:
          "The write queue of the auto-promoter's promotions: how many wait for their pull request to be opened (GitHub's write limit paces them), and since when the oldest (any user or service token).",
        responses: {
          '200': {
            description: 'The queue.',
            content: {
              'application/json': {
                schema: {
                  $ref: '#/components/schemas/WriteQueueState',
                },
              },
            },
          },
          default: {
            $ref: '#/components/responses/ErrorResponse',
          },
        },
      },
    },
    '/incidents': {
      post: {
        operationId: 'ReportIncident',
        tags: ['organisation'],
        description:
          'An incident tool reports an incident opening or resolving (service tokens only). Only with `promotions.incidents` configured; 404 otherwise.',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                $ref: '#/components/schemas/IncidentReport',
              },
            },
          },
        },
        responses: {
          '200': {
            description:
              'The incident as recorded, and whether the report changed it.',
            content: {
              'application/json': {
                schema: {
                  $ref: '#/components/schemas/IncidentOutcome',
                },
              },
            },
          },
          default: {
            $ref: '#/components/responses/ErrorResponse',
          },
        },
      },
    },
  },
  components: {
    parameters: {
      team: {
        name: 'team',
        in: 'path',
        required: true,
        description: "The team's name (lowercase letters, digits and -).",
        schema: {
          type: 'string',
          pattern: '^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$',
        },
      },
      product: {
        name: 'product',
        in: 'path',
        required: true,
        description: "The Product's name (lowercase letters, digits and -).",
        schema: {
          type: 'string',
          pattern: '^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$',
        },
      },
      stage: {
        name: 'stage',
        in: 'path',
        required: true,
        description: "A stage's name.",
        schema: {
          type: 'string',
          pattern: '^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$',
        },
      },
      service: {
        name: 'service',
        in: 'path',
        required: true,
        description: "A Service's name.",
        schema: {
          type: 'string',
          pattern: '^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$',
        },
      },
      id: {
        name: 'id',
        in: 'path',
        required: true,
        description: 'A promotion id (a UUID).',
        schema: {
          type: 'string',
          pattern: '^[0-9a-f-]{36}$',
        },
      },
      fromStage: {
        name: 'from',
        in: 'query',
        required: true,
        description: 'The lower stage.',
        schema: {
          type: 'string',
          pattern: '^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$',
        },
      },
      toStage: {
        name: 'to',
        in: 'query',
        required: true,
        description: 'The upper stage.',
        schema: {
          type: 'string',
          pattern: '^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$',
        },
      },
      ladderDetail: {
        name: 'detail',
        in: 'query',
        required: false,
        description:
          "`full` (the default): every cell with its `checks`, `checklist` and `diagnosis`; `summary`: without them, with each cell's `brief` instead.",
        schema: {
          type: 'string',
          enum: ['full', 'summary'],
        },
      },
    },
    responses: {
      ErrorResponse: {
        description: "Backstage's error body.",
        content: {
          'application/json': {
            schema: {
              $ref: '#/components/schemas/ErrorBody',
            },
          },
        },
      },
      PromotionOutcome: {
        description:
          'The promotion; `existing` tells one already open (200) from a new one (201).',
        content: {
          'application/json': {
            schema: {
              $ref: '#/components/schemas/PromotionResponse',
            },
          },
        },
      },
      PromotionResult: {
        description: 'The promotion after the change.',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['promotion'],
              properties: {
                promotion: {
                  $ref: '#/components/schemas/Promotion',
                },
              },
            },
          },
        },
      },
      HoldOutcome: {
        description: 'The hold.',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['hold'],
              properties: {
                hold: {
                  $ref: '#/components/schemas/Hold',
                },
              },
            },
          },
        },
      },
    },
    schemas: {
      PromotionRequest: {
        description: 'Body of `POST /products/{team}/{product}/promotions`.',
        type: 'object',
        required: ['toStage'],
        properties: {
          toStage: {
            type: 'string',
            pattern: '^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$',
            description: 'The stage to promote into.',
          },
          services: {
            type: 'array',
            minItems: 1,
            description:
              'Only these Services; every differing one when left out.',
            items: {
              type: 'string',
              pattern: '^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$',
            },
          },
          override: {
            description:
              "A release-approver's override of the guards' blocks (e.g. a freeze window).",
            $ref: '#/components/schemas/ReasonRequest',
          },
        },
      },
      RollbackRequest: {
        description: 'Body of `POST /products/{team}/{product}/rollbacks`.',
        type: 'object',
        required: ['stage', 'services'],
        properties: {
          stage: {
            type: 'string',
            pattern: '^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$',
          },
          services: {
            type: 'object',
            description: 'Each Service to roll back, to the digest to run.',
            minProperties: 1,
            propertyNames: {
              pattern: '^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$',
            },
            additionalProperties: {
              type: 'string',
              pattern: '^sha256:[0-9a-f]{64}$',
            },
          },
        },
      },
      HoldRequest: {
        description: 'Body of `POST /products/{team}/{product}/holds`.',
        type: 'object',
        required: ['stage', 'service', 'reason'],
        properties: {
          stage: {
            type: 'string',
            pattern: '^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$',
          },
          service: {
            type: 'string',
            pattern: '^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$',
          },
          reason: {
            type: 'string',
            pattern: '\\S',
            description: 'Shown on the ladder; cut to 500 characters.',
          },
        },
      },
      ReasonRequest: {
        description:
          "Body of `POST /promotions/{id}/override`, `/reject` and `/withdraw`, and a request's `override`.",
        type: 'object',
        required: ['reason'],
        properties: {
          reason: {
            type: 'string',
            pattern: '\\S',
            maxLength: 1000,
          },
        },
      },
      IncidentReport: {
        description:
          "What an incident tool reports on the events topic `promotions.incidents` (or `POST /incidents`): `product` is the Product's `team/product`.",
        type: 'object',
        required: ['product', 'id', 'state', 'url'],
        properties: {
          product: {
            type: 'string',
            description: 'The Product as team/product.',
            pattern:
              '^\\s*[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?/[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?\\s*$',
          },
          id: {
            type: 'string',
            pattern: '\\S',
            maxLength: 200,
          },
          state: {
            type: 'string',
            enum: ['open', 'resolved'],
          },
          url: {
            type: 'string',
            maxLength: 2000,
            description: 'An http(s) link to the incident.',
            pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#]+([/?#].*)?$',
          },
        },
      },
      ErrorBody: {
        description:
          "Backstage's error body, which `ResponseError.fromResponse` of `@backstage/errors` reads.",
        type: 'object',
        required: ['error', 'response'],
        properties: {
          error: {
            type: 'object',
            required: ['name', 'message'],
            properties: {
              name: {
                type: 'string',
              },
              message: {
                type: 'string',
              },
            },
          },
          request: {
            type: 'object',
            properties: {
              method: {
                type: 'string',
              },
              url: {
                type: 'string',
              },
            },
          },
          response: {
            type: 'object',
            required: ['statusCode'],
            properties: {
              statusCode: {
                type: 'integer',
              },
            },
          },
        },
      },
      Ladder: {
        type: 'object',
        'x-refplat-type': 'ladder/types#Ladder',
        required: ['stages'],
        properties: {
          stages: {
            type: 'array',
            items: {
              type: 'object',
            },
          },
        },
      },
      LadderServiceCell: {
        type: 'object',
        'x-refplat-type': 'ladder/types#LadderServiceCell',
        required: ['declared', 'healthy', 'verdict'],
        properties: {
          declared: {
            type: 'boolean',
          },
          healthy: {
            type: 'boolean',
          },
          verdict: {
            type: 'string',
          },
        },
      },
      Promotion: {
        type: 'object',
        'x-refplat-type': 'promotions/types#Promotion',
        required: ['id', 'status'],
        properties: {
          id: {
            type: 'string',
          },
          status: {
            type: 'string',
          },
        },
      },
      PromotionEvent: {
        type: 'object',
        'x-refplat-type': 'promotions/types#PromotionEvent',
      },
      PromotionResponse: {
        type: 'object',
        'x-refplat-type': 'promotions/types#PromotionResponse',
        required: ['promotion'],
        properties: {
          promotion: {
            $ref: '#/components/schemas/Promotion',
          },
          existing: {
            type: 'boolean',
          },
          plan: {
            type: 'array',
            items: {
              type: 'object',
            },
          },
          guards: {
            type: 'array',
            items: {
              type: 'object',
            },
          },
        },
      },
      Hold: {
        type: 'object',
        'x-refplat-type': 'autoPromote/types#Hold',
      },
      AutoDecision: {
        type: 'object',
        'x-refplat-type': 'autoPromote/decide#AutoDecision',
      },
      AutoPromotionRecord: {
        description:
          "One decision of the auto-promoter's latest run over a Product.",
        allOf: [
          {
            $ref: '#/components/schemas/AutoDecision',
          },
          {
            type: 'object',
            required: ['runId', 'decidedAt'],
            properties: {
              runId: {
                type: 'string',
              },
              decidedAt: {
                type: 'string',
                description: "ISO time of the run's decision.",
              },
            },
          },
        ],
      },
      StageChanges: {
        type: 'object',
        'x-refplat-type': 'changes/types#StageChanges',
      },
      StageHistoryEntry: {
        type: 'object',
        'x-refplat-type': 'promotions/types#StageHistoryEntry',
      },
      ApprovalItem: {
        type: 'object',
        'x-refplat-type': 'approval/inbox#ApprovalItem',
      },
      DeliveryMetrics: {
        type: 'object',
        'x-refplat-type': 'metrics/deliveryMetrics#DeliveryMetrics',
      },
      DeliveryMetricsResponse: {
        description:
          '`GET /metrics`: the metrics of a window and the Products they count (`team/product`, readable ones only).',
        allOf: [
          {
            $ref: '#/components/schemas/DeliveryMetrics',
          },
          {
            type: 'object',
            required: ['scope', 'products'],
            properties: {
              scope: {
                type: 'string',
              },
              products: {
                type: 'array',
                items: {
                  type: 'string',
                },
              },
            },
          },
        ],
      },
      OverviewResponse: {
        type: 'object',
        'x-refplat-type': 'overview/types#OverviewResponse',
      },
      StuckResponse: {
        type: 'object',
        'x-refplat-type': 'overview/types#StuckResponse',
      },
      WriteQueueState: {
        type: 'object',
        'x-refplat-type': 'promotions/types#WriteQueueState',
        required: ['waiting'],
        properties: {
          waiting: {
            type: 'integer',
          },
          oldestQueuedAt: {
            type: 'string',
          },
          waitingFor: {
            description:
              'While some wait, why the next pull request is not open yet.',
            type: 'string',
            enum: [
              'turn',
              'github-minute-write-limit',
              'github-hourly-write-limit',
            ],
          },
          opensAt: {
            type: 'string',
            description:
              "While GitHub's write limit holds them, when the next write may go.",
          },
        },
      },
      IncidentOutcome: {
        description:
          '`POST /incidents`: the report as recorded, and whether it changed anything.',
        type: 'object',
        required: ['incident', 'changed'],
        properties: {
          incident: {
            $ref: '#/components/schemas/IncidentReport',
          },
          changed: {
            type: 'boolean',
            description: 'False for a report that changes nothing.',
          },
        },
      },
    },
  },
} as const;

/** Each route's path and query parameters, body and answer, keyed `#<method>|<path>`. */
export type EndpointMap = {
  '#get|/health': { response: { status: 'ok' } };
  '#get|/products/{team}/{product}/ladder': {
    path: { team: string; product: string };
    query: { detail?: 'full' | 'summary' };
    response: Ladder;
  };
  '#get|/products/{team}/{product}/ladder/stages/{stage}/services/{service}': {
    path: { team: string; product: string; stage: string; service: string };
    response: LadderServiceCell;
  };
  '#get|/products/{team}/{product}/promotions': {
    path: { team: string; product: string };
    response: { items: Array<Promotion> };
  };
  '#post|/products/{team}/{product}/promotions': {
    path: { team: string; product: string };
    body: PromotionRequest;
    response: PromotionResponse;
  };
  '#post|/products/{team}/{product}/rollbacks': {
    path: { team: string; product: string };
    body: RollbackRequest;
    response: PromotionResponse;
  };
  '#get|/products/{team}/{product}/holds': {
    path: { team: string; product: string };
    response: { items: Array<Hold> };
  };
  '#post|/products/{team}/{product}/holds': {
    path: { team: string; product: string };
    body: HoldRequest;
    response: { hold: Hold };
  };
  '#_delete|/products/{team}/{product}/holds/{stage}/{service}': {
    path: { team: string; product: string; stage: string; service: string };
    response: { hold: Hold };
  };
  '#get|/products/{team}/{product}/auto-promotions': {
    path: { team: string; product: string };
    response: { items: Array<AutoPromotionRecord> };
  };
  '#get|/products/{team}/{product}/changes': {
    path: { team: string; product: string };
    query: { from: string; to: string };
    response: StageChanges;
  };
  '#get|/products/{team}/{product}/stages/{stage}/history': {
    path: { team: string; product: string; stage: string };
    response: { items: Array<StageHistoryEntry> };
  };
  '#get|/promotions/{id}': {
    path: { id: string };
    response: { promotion: Promotion; events: Array<PromotionEvent> };
  };
  '#post|/promotions/{id}/approve': {
    path: { id: string };
    body: Record<string, unknown>;
    response: { promotion: Promotion };
  };
  '#post|/promotions/{id}/override': {
    path: { id: string };
    body: ReasonRequest;
    response: { promotion: Promotion };
  };
  '#post|/promotions/{id}/reject': {
    path: { id: string };
    body: ReasonRequest;
    response: { promotion: Promotion };
  };
  '#post|/promotions/{id}/withdraw': {
    path: { id: string };
    body: ReasonRequest;
    response: { promotion: Promotion };
  };
  '#get|/approvals': { response: { items: Array<ApprovalItem> } };
  '#get|/metrics': {
    query: { scope?: string; from?: string; to?: string };
    response: DeliveryMetricsResponse;
  };
  '#get|/overview': {
    query: {
      owner?: string;
      team?: string;
      filter?: 'stuck' | 'awaiting-approval' | 'mine';
      cursor?: string;
      limit?: string;
    };
    response: OverviewResponse;
  };
  '#get|/stuck': { response: StuckResponse };
  '#get|/write-queue': { response: WriteQueueState };
  '#post|/incidents': { body: IncidentReport; response: IncidentOutcome };
};

/** An Express router whose routes are typed by the spec (and which serves it at `/openapi.json`). */
export const createOpenApiRouter = async (
  options?: Parameters<
    typeof createValidatedOpenApiRouterFromGeneratedEndpointMap
  >[1],
) =>
  createValidatedOpenApiRouterFromGeneratedEndpointMap<EndpointMap>(
    spec,
    options,
  );
