/** Why a command ended, as the process exit code tells a pipeline. */
export const EXIT = {
  ok: 0,
  failed: 1,
  /** commander's own code for a usage error. */
  usage: 2,
  /** 409: the rules refused (nothing to promote, a hold, not awaiting approval, own promotion). */
  refused: 3,
  /** 401 or 403: the token's user may not do this. */
  notAllowed: 4,
  timedOut: 5,
} as const;

/** A failure with the exit code it maps to. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

function exitCodeFor(status: number): number {
  if (status === 409) return EXIT.refused;
  if (status === 401 || status === 403) return EXIT.notAllowed;
  return EXIT.failed;
}

/**
 * The promotions backend over HTTP with a Backstage token: the registered
 * actions (the same checks as the UI) and the promotion read route.
 */
export class PromotionsClient {
  constructor(
    private readonly backend: string,
    private readonly token: string,
  ) {}

  /** Invokes `promotions:<action>`; answers its output, or throws with the backend's reason. */
  async invoke<T>(action: string, input: object): Promise<T> {
    const body = await this.call('POST', `/.backstage/actions/v1/actions/promotions:${action}/invoke`, input);
    return (body as { output: T }).output;
  }

  async promotion(id: string): Promise<{ promotion: { status: string; statusReason?: string; pullRequest: { url: string } } }> {
    return this.call('GET', `/promotions/${encodeURIComponent(id)}`) as never;
  }

  private async call(method: string, path: string, body?: object): Promise<unknown> {
    const url = `${this.backend.replace(/\/$/, '')}/api/promotions${path}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      });
    } catch (error) {
      throw new CliError(`Could not reach ${url}: ${(error as Error).message}`, EXIT.failed);
    }
    const text = await response.text();
    let parsed: { error?: { message?: string } } | undefined;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!response.ok) {
      const reason = parsed?.error?.message ?? text.slice(0, 200);
      throw new CliError(`${response.status}: ${reason}`, exitCodeFor(response.status));
    }
    return parsed;
  }
}
