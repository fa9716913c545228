export const DOCS_URL = 'https://docs.github.com/rest';

/** An error answered with GitHub's error body: {message, documentation_url, errors?}. */
export class GithubError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: unknown[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'GithubError';
  }

  body(): Record<string, unknown> {
    const body: Record<string, unknown> = {
      message: this.message,
      documentation_url: DOCS_URL,
    };
    if (this.errors) body.errors = this.errors;
    body.status = String(this.status);
    return body;
  }
}

export const notFound = (message = 'Not Found') =>
  new GithubError(404, message);

/** GitHub's 422 with a field-level error list. */
export const validationFailed = (
  errors: unknown[],
  message = 'Validation Failed',
) => new GithubError(422, message, errors);

export function requireString(body: any, field: string): string {
  const value = body?.[field];
  if (typeof value !== 'string' || value.length === 0) {
    throw validationFailed(
      [{ resource: 'Body', field, code: 'missing_field' }],
      `Invalid request.\n\n"${field}" wasn't supplied.`,
    );
  }
  return value;
}
