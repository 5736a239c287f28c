import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import * as z from 'zod/v4';

const testdata = new URL('../../src/kernel/net/testdata/', import.meta.url);

/** The only name the upstream's certificate is valid for: route it with EGRESS_TEST_ROUTES. */
export const UPSTREAM_HOST = 'secure.example.test';
/** The test CA that signed the certificate (for EGRESS_TEST_CA_FILE). */
export const UPSTREAM_CA_FILE = new URL('ca.pem', testdata).pathname;

export interface McpUpstream {
  port: number;
  /** `https://secure.example.test<path>`: `/mcp` is the MCP server, `/fail` answers 500, `/hang` never answers. */
  url(path: string): string;
  /** Tool calls the MCP server ran, in order. */
  calls: Array<{ tool: string; arguments: unknown }>;
  close(): Promise<void>;
}

/**
 * A real MCP server built with the official SDK (stateless Streamable HTTP, one server per request) over TLS on
 * loopback, with tools `echo`, `add` and `wipe`; beside it, paths that fail (500), redirect, or hang.
 */
export async function startMcpUpstream(): Promise<McpUpstream> {
  const calls: McpUpstream['calls'] = [];
  const hanging = new Set<import('node:http').ServerResponse>();

  function mcpServer() {
    const server = new McpServer({ name: 'upstream', version: '1.0.0' });
    server.registerTool(
      'echo',
      { description: 'Echoes its text', inputSchema: { text: z.string() } },
      async ({ text }) => {
        calls.push({ tool: 'echo', arguments: { text } });
        return { content: [{ type: 'text', text }] };
      },
    );
    server.registerTool(
      'add',
      { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } },
      async ({ a, b }) => {
        calls.push({ tool: 'add', arguments: { a, b } });
        return { content: [{ type: 'text', text: String(a + b) }] };
      },
    );
    server.registerTool('wipe', { description: 'Deletes everything' }, async () => {
      calls.push({ tool: 'wipe', arguments: {} });
      return { content: [{ type: 'text', text: 'wiped' }] };
    });
    return server;
  }

  const https: Server = createServer(
    {
      key: readFileSync(new URL('server-key.pem', testdata)),
      cert: readFileSync(new URL('server-cert.pem', testdata)),
    },
    (request, response) => {
      const path = new URL(request.url ?? '/', `https://${UPSTREAM_HOST}`).pathname;
      if (path === '/fail') {
        request.resume();
        response.writeHead(500, { 'content-type': 'text/plain' }).end('upstream broke');
        return;
      }
      if (path === '/redirect') {
        request.resume();
        response.writeHead(307, { location: `https://${UPSTREAM_HOST}/mcp` }).end();
        return;
      }
      if (path === '/hang') {
        request.resume();
        hanging.add(response);
        return;
      }
      if (path === '/huge') {
        request.resume();
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(`{"jsonrpc":"2.0","id":1,"result":{"pad":"${'x'.repeat(2 * 1024 * 1024)}"}}`);
        return;
      }
      const server = mcpServer();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      response.on('close', () => {
        void transport.close();
        void server.close();
      });
      void server.connect(transport).then(() => transport.handleRequest(request, response));
    },
  );
  await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
  const { port } = https.address() as AddressInfo;
  return {
    port,
    url: (path) => `https://${UPSTREAM_HOST}${path}`,
    calls,
    async close() {
      for (const response of hanging) response.destroy();
      https.closeAllConnections();
      await new Promise<void>((resolve) => https.close(() => resolve()));
    },
  };
}
