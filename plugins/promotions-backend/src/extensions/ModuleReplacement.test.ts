import { ModuleReplacement } from './ModuleReplacement';

interface Greeter {
  greet(): string;
}

const hello: Greeter = { greet: () => 'hello' };
const defaultGreeter = async (): Promise<Greeter> => ({ greet: () => 'default' });

describe('ModuleReplacement', () => {
  it('resolves to nothing when no module set a replacement, without building the default', async () => {
    const replacement = new ModuleReplacement<Greeter>('the greeter');
    const getDefault = jest.fn(defaultGreeter);

    expect(replacement.isSet).toBe(false);
    expect(await replacement.resolve(getDefault)).toBeUndefined();
    expect(getDefault).not.toHaveBeenCalled();
  });

  it('resolves to the instance a module set', async () => {
    const replacement = new ModuleReplacement<Greeter>('the greeter');
    replacement.set(hello);

    expect(replacement.isSet).toBe(true);
    expect(await replacement.resolve(defaultGreeter)).toBe(hello);
  });

  it("gives a module's factory the default to wrap", async () => {
    const replacement = new ModuleReplacement<Greeter>('the greeter');
    replacement.set(async ({ getDefault }) => {
      const inner = await getDefault();
      return { greet: () => `${inner.greet()}, wrapped` };
    });

    expect((await replacement.resolve(defaultGreeter))?.greet()).toBe('default, wrapped');
  });

  it('refuses a second replacement, naming the part', () => {
    const replacement = new ModuleReplacement<Greeter>('the greeter');
    replacement.set(hello);

    expect(() => replacement.set(hello)).toThrow(
      'the greeter was already replaced by another module: at most one module may replace it',
    );
  });
});
