import { InputError } from '@backstage/errors';
import {
  HoldRequest,
  IncidentReport,
  PromotionRequest,
  ReasonRequest,
  RollbackRequest,
} from '@refplat/plugin-promotions-common';
import Ajv2020, { ErrorObject } from 'ajv/dist/2020';
import { spec } from '../schema/openapi/generated';

/** The request bodies openapi.yaml defines (their types are generated from it), by schema name. */
interface RequestBodies {
  PromotionRequest: PromotionRequest;
  RollbackRequest: RollbackRequest;
  HoldRequest: HoldRequest;
  ReasonRequest: ReasonRequest;
  IncidentReport: IncidentReport;
}

/**
 * openapi.yaml's component schemas, for the bodies that come by no route: the
 * registered actions' and the incidents topic's (the router's validator checks
 * the routes' own). `strict: false`: descriptions and `x-refplat-type` are no
 * JSON Schema keywords.
 */
const ajv = new Ajv2020({ strict: false }).addSchema({
  $id: 'openapi.yaml',
  components: { schemas: spec.components.schemas },
});

/** An enum's refusal names the values it takes, as the router's validator words it. */
function withAllowedValues(error: ErrorObject): ErrorObject {
  if (error.keyword !== 'enum') return error;
  return { ...error, message: `${error.message}: ${error.params.allowedValues.join(', ')}` };
}

/**
 * `body` when openapi.yaml's schema `name` describes it, or 400 saying the
 * first thing wrong, as the router's validator says it (never the value).
 */
export function checkedBody<Name extends keyof RequestBodies>(name: Name, body: unknown): RequestBodies[Name] {
  const validate = ajv.getSchema(`openapi.yaml#/components/schemas/${name}`)!;
  if (!validate(body)) {
    throw new InputError(ajv.errorsText(validate.errors?.map(withAllowedValues), { dataVar: 'body' }));
  }
  return body as RequestBodies[Name];
}
