import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

export function newAjv(): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true, logger: false });
  addFormats(ajv);
  return ajv;
}

/**
 * Compiles each schema the first time its key is asked for: a test run
 * touches a few dozen of the thousands of operations in the descriptions.
 */
export class LazyValidators {
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(
    private readonly ajv: Ajv,
    private readonly prepare: (schema: unknown) => object,
  ) {}

  get(key: string, schema: () => unknown): ValidateFunction {
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(this.prepare(schema()));
      this.compiled.set(key, validate);
    }
    return validate;
  }
}

/** Ajv errors as short "path: message" lines, the anyOf/oneOf summaries left out. */
export function formatErrors(errors: ErrorObject[] | null | undefined, max = 12): string[] {
  const lines = new Set<string>();
  for (const error of errors ?? []) {
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf') continue;
    const params = error.params as { missingProperty?: string; allowedValues?: unknown[] };
    let line = `${error.instancePath || '/'} ${error.message}`;
    if (params.missingProperty) line = `${error.instancePath}/${params.missingProperty} is required`;
    if (params.allowedValues) line += ` ${JSON.stringify(params.allowedValues)}`;
    lines.add(line);
  }
  const all = [...lines];
  return all.length > max ? [...all.slice(0, max), `… ${all.length - max} more`] : all;
}

/** Validates and returns the problems, `prefix` before each. */
export function problemsOf(validate: ValidateFunction, value: unknown, prefix: string, max?: number): string[] {
  return validate(value) ? [] : formatErrors(validate.errors, max).map(line => `${prefix}${line}`);
}
