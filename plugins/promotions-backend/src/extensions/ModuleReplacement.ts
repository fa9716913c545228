/** How a module may replace a part: by an instance, or by a factory that may wrap the default. */
export type Replacing<T, D> = T | ((options: { getDefault(): Promise<D> }) => T | Promise<T>);

/**
 * A part of the plugin (the health source, the directory) that one backend
 * module may replace through an extension point. Two modules replacing the
 * same part is a mistake in the backend's setup: which one won would depend
 * on the order they start in, so the second one throws instead.
 */
export class ModuleReplacement<T extends object, D = T> {
  private replacement?: Replacing<T, D>;

  constructor(
    /** The part, as the error names it: e.g. 'the promotions health source'. */
    private readonly part: string,
  ) {}

  set(replacement: Replacing<T, D>): void {
    if (this.replacement) {
      throw new Error(`${this.part} was already replaced by another module: at most one module may replace it`);
    }
    this.replacement = replacement;
  }

  get isSet(): boolean {
    return this.replacement !== undefined;
  }

  /** The module's replacement (a factory is given the default), or undefined when no module set one. */
  async resolve(getDefault: () => Promise<D>): Promise<T | undefined> {
    const replacement = this.replacement;
    if (typeof replacement === 'function') return replacement({ getDefault });
    return replacement;
  }
}
