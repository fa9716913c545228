/**
 * An upstream answer's bytes, counted as they arrive: past `maxBytes` the read is cut off,
 * whether or not `Content-Length` said so (a chunked answer has none), so a slow, wrong or
 * hostile upstream cannot make the plugin hold more than that. `tooLarge` says it in the
 * caller's words (given the size, or "more than N").
 */
export async function readBodyWithin(
  response: Response,
  maxBytes: number,
  tooLarge: (bytes: number | string) => Error,
): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge(declared);
  }
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let read = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    read += value.byteLength;
    if (read > maxBytes) {
      await reader.cancel();
      throw tooLarge(`more than ${maxBytes}`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, read);
}
