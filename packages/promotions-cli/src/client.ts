import { DefaultApiClient, Promotion, PromotionEvent, TypedResponse } from '@refplat/plugin-promotions-common';

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
 * actions (the same checks as the UI; Backstage's actions registry, not a
 * route of openapi.yaml) and the promotion read route, through the client
 * generated from the backend's openapi.yaml.
 */
export class PromotionsClient {
  private readonly baseUrl: string;
  private readonly api: DefaultApiClient;

  constructor(
    backend: string,
    private readonly token: string,
  ) {
    this.baseUrl = `${backend.replace(/\/$/, '')}/api/promotions`;
    this.api = new DefaultApiClient({ discoveryApi: { getBaseUrl: async () => this.baseUrl } });
  }

  /** Invokes `promotions:<action>`; answers its output, or throws with the backend's reason. */
  async invoke<T>(action: string, input: object): Promise<T> {
    const url = `${this.baseUrl}/.backstage/actions/v1/actions/promotions:${action}/invoke`;
    const sent = fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(input),
    });
    const body = await this.answer(url, sent);
    return (body as { output: T }).output;
  }

  async promotion(id: string): Promise<{ promotion: Promotion; events: PromotionEvent[] }> {
    const url = `${this.baseUrl}/promotions/${encodeURIComponent(id)}`;
    return this.answer(url, this.api.getPromotion({ path: { id } }, { token: this.token }));
  }

  /** The parsed body, or a CliError with the backend's reason and the exit code its status maps to. */
  private async answer<T>(url: string, sent: Promise<TypedResponse<T>>): Promise<T> {
    let response: TypedResponse<T>;
    try {
      response = await sent;
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
    return parsed as T;
  }
}
