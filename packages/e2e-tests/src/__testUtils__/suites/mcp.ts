import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SharedStack } from '../sharedStack';
import { SuiteProduct } from '../products';
import { RunningStack, userToken } from '../stack';

/** The text an MCP tool answered (the mcp-actions backend sends the action's output as JSON text). */
function toolText(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content = result.content as Array<{ type: string; text?: string }>;
  return content.map(part => part.text ?? '').join('');
}

/** An assistant's view: the official MCP SDK client against the running demo backend, on a Product of its own. */
export function mcpSuite(shared: SharedStack): void {
  describe('the promotion tools over MCP', () => {
    let stack: RunningStack;
    let shop: SuiteProduct;
    let client: Client;

    beforeAll(async () => {
      stack = shared.stack;
      shop = await shared.addProduct('shop-mcp');
      const token = await userToken(stack.baseUrl, 'bob');
      client = new Client({ name: 'promotions-e2e', version: '0.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${stack.baseUrl}/api/mcp-actions/v1`), {
          requestInit: { headers: { Authorization: `Bearer ${token}` } },
        }),
      );
    });

    afterAll(async () => {
      await client?.close();
    });

    it('lists the promotion tools, and only those (backend.actions.pluginSources)', async () => {
      const { tools } = await client.listTools();
      expect(tools.map(tool => tool.name).sort()).toEqual([
        'promotions.approve-promotion',
        'promotions.explain',
        'promotions.get-ladder',
        'promotions.hold',
        'promotions.list-awaiting-approval',
        'promotions.request-promotion',
        'promotions.resume',
        'promotions.what-changed',
        'promotions.withdraw-promotion',
      ]);
      const explain = tools.find(tool => tool.name === 'promotions.explain')!;
      expect(explain.description).toMatch(/why is shop stuck in staging/);
      expect(explain.annotations).toMatchObject({ readOnlyHint: true });
    });

    it("explains a stuck stage with the ladder's diagnosis", async () => {
      stack.sim.control.setApp(shop.application('staging'), { health: 'Degraded' });
      const explained = async () => {
        const result = await client.callTool({ name: 'promotions.explain', arguments: { product: shop.ref, stage: 'staging' } });
        if (result.isError) throw new Error(`explain failed: ${toolText(result)}`);
        return JSON.parse(toolText(result));
      };
      // The ladder is cached for a few seconds; poll until it reads the Degraded Application.
      const deadline = Date.now() + 60_000;
      let output = await explained();
      while (!output.stuck && Date.now() < deadline) {
        await new Promise(resolve => setTimeout(resolve, 1000));
        output = await explained();
      }
      expect(output.stuck).toBe(true);
      expect(output.services.map((s: { diagnosis: { code: string } }) => s.diagnosis.code)).toContain('degraded');
      expect(output.text).toMatch(/^storefront in staging: unhealthy \(stuck\)\./m);
      expect(output.text).toMatch(/Likely cause: /);
    });
  });
}
