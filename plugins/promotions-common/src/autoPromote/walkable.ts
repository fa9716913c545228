/**
 * How far up the ladder the auto-promoter walks: the index of the first
 * approval stage (it never promotes into one, nor past it), or the ladder's
 * length when no stage asks for approval. Pairs (i-1 → i) with i below it.
 *
 * @public
 */
export function walkLimit(
  stages: ReadonlyArray<{ requiresApproval: boolean }>,
): number {
  const firstApproval = stages.findIndex(stage => stage.requiresApproval);
  return firstApproval < 0 ? stages.length : firstApproval;
}

/**
 * The stages whose health an auto-promoter run needs: the source of each
 * pair it walks whose Release names a digest the stage above does not. The
 * rule (`decideAutoPromotions`) reads the source cell's health and nothing
 * else; reading ArgoCD's resource trees of the other stages would cost the
 * run a read per Application for nothing.
 *
 * @public
 */
export function autoPromotionSources(
  stages: ReadonlyArray<{
    name: string;
    requiresApproval: boolean;
    digests: Readonly<Record<string, string | undefined>>;
  }>,
): Set<string> {
  const sources = new Set<string>();
  for (let i = 1; i < walkLimit(stages); i++) {
    const [source, target] = [stages[i - 1], stages[i]];
    const offers = Object.entries(source.digests).some(
      ([service, digest]) =>
        digest !== undefined && digest !== target.digests[service],
    );
    if (offers) sources.add(source.name);
  }
  return sources;
}
