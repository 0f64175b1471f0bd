import { runRecogniserTable } from '../recogniser-tester.js';

runRecogniserTable('mcp', {
  positive: [
    {
      name: 'TypeScript SDK: server.tool with a schema and registerTool with a config, handlers written in place',
      files: {
        'src/index.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const server = new McpServer({ name: 'files', version: '1.0.0' });
server.tool('delete_file', 'Delete a file', { path: z.string() }, async ({ path }) => {
  return { content: [{ type: 'text', text: path }] };
});
server.registerTool(
  'run_query',
  { description: 'Run a query', inputSchema: { sql: z.string() } },
  async ({ sql }) => ({ content: [{ type: 'text', text: sql }] }),
);
`,
      },
      entries: [
        { function: '<lambda@L4>', line: 4, kind: 'route' },
        { function: '<lambda@L10>', line: 10, kind: 'route' },
      ],
    },
    {
      name: 'TypeScript SDK: a handler named by reference and the low-level tools/call handler',
      files: {
        'src/tools.ts': `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
async function restartService(args: { name: string }) {
  return { content: [] };
}
export const server = new Server({ name: 'ops', version: '1' }, { capabilities: { tools: {} } });
server.tool('restart', restartService);
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  return { content: [] };
});
`,
      },
      entries: [
        { function: 'restartService', line: 3 },
        { function: '<lambda@L8>', line: 8 },
      ],
    },
    {
      name: 'Python FastMCP: @mcp.tool() and @mcp.tool decorated functions',
      files: {
        'server.py': `from mcp.server.fastmcp import FastMCP

mcp = FastMCP("admin")

@mcp.tool()
def drop_table(name: str) -> str:
    return name

@mcp.tool
async def list_users() -> list:
    return []

def helper():
    return 1
`,
      },
      entries: [
        { function: 'drop_table', line: 5 },
        { function: 'list_users', line: 9 },
      ],
    },
  ],
  negative: [
    {
      name: 'a .tool() call and a tool decorator in files that import no MCP SDK',
      files: {
        'src/agent.ts': `import { Agent } from 'some-agent-kit';
const agent = new Agent();
agent.tool('search', async ({ q }) => q);
`,
        'agent.py': `from langchain.tools import tool
import crew

@crew.tool()
def search(q):
    return q
`,
      },
    },
    {
      name: 'an MCP client calling tools, and a request handler for another schema',
      files: {
        'src/client.ts': `import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ListResourcesRequestSchema } from '@modelcontextprotocol/sdk/types.js';
const client = new Client({ name: 'c', version: '1' });
const result = await client.callTool({ name: 'x', arguments: {} });
client.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [] }));
`,
      },
    },
  ],
});
