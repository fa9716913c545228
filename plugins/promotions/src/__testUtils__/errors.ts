import { ResponseError } from '@backstage/errors';

/** The ResponseError a failed call throws for a 409 whose body is `body` as JSON. */
export function conflictResponse(
  body: unknown,
  contentType: string = 'application/json',
): Promise<ResponseError> {
  const text = JSON.stringify(body);
  return ResponseError.fromResponse({
    ok: false,
    status: 409,
    statusText: 'Conflict',
    headers: { get: () => contentType },
    text: async () => text,
  } as any);
}

/** The backend refusing with `message`, in Backstage's error body. */
export function conflict(message: string): Promise<ResponseError> {
  return conflictResponse({
    error: { name: 'ConflictError', message },
    response: { statusCode: 409 },
  });
}
