/**
 * Whether the event loop took a turn while `work` ran: a callback queued just
 * after it started ran before it ended. Work that resolves with promises alone
 * (cached reads) gives none until its end, and holds every request in flight.
 */
export async function givesTheEventLoopATurn(work: () => Promise<unknown>): Promise<boolean> {
  let finished = false;
  const done = work().then(() => {
    finished = true;
  });
  const turnedBeforeTheEnd = await new Promise<boolean>(resolve => setImmediate(() => resolve(!finished)));
  await done;
  return turnedBeforeTheEnd;
}
