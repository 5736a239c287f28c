import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type {
  JSONRPCErrorResponse,
  JSONRPCMessage,
  JSONRPCRequest,
  JSONRPCResultResponse,
  RequestId,
} from '@modelcontextprotocol/sdk/types.js';

// The SDK transport of the first-party server: one per process, in-process, carrying one JSON-RPC request per HTTP
// exchange to the one SDK `Server` of the process and its answer back (docs/mcp.md "How the server is built").
//
// Why not the SDK's Streamable HTTP transport: in stateless mode it must be built anew for every request (it refuses
// reuse because clients' request ids would collide), and with it a `Server` connected to it, a web `Request` and
// `Response`, and the transport's close with its error objects: that machinery cost three times the rest of a
// `tools/call` (docs/benchmarks.md, MCP). The HTTP rules it applied are applied by server.ts instead.
//
// Why one shared server is safe: every request reaches the SDK under an id of this process's own (a counter), never
// the client's, so concurrent requests that chose the same id (every client starts at 0 or 1) are told apart by the
// protocol layer, and each answer goes back to its own HTTP exchange with the client's id restored. Notifications
// are never handed to the shared server: in stateless mode none can act (there is no session to initialize, and a
// `notifications/cancelled` naming a client's id could otherwise reach another caller's request).

type Answer = JSONRPCResultResponse | JSONRPCErrorResponse;

interface Pending<C> {
  clientId: RequestId;
  context: C;
  resolve(answer: Answer): void;
}

export class RequestExchange<C> implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: Transport['onmessage'];
  private next = 0;
  private readonly pending = new Map<number, Pending<C>>();

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  /** The context of the request the SDK knows under `id` (the handler's `extra.requestId`). */
  contextOf(id: RequestId): C {
    const pending = this.pending.get(id as number);
    if (!pending) throw new Error(`MCP exchange: no request ${String(id)} in flight`);
    return pending.context;
  }

  /** Hands one request to the server; resolves with its answer under the client's own id. */
  exchange(request: JSONRPCRequest, context: C): Promise<Answer> {
    if (!this.onmessage) throw new Error('MCP exchange: no server connected');
    // Wraps around long before 2^53; an id is in flight for at most the length of one request.
    this.next = this.next >= Number.MAX_SAFE_INTEGER ? 1 : this.next + 1;
    const id = this.next;
    const answer = new Promise<Answer>((resolve) => {
      this.pending.set(id, { clientId: request.id, context, resolve });
    });
    this.onmessage({ ...request, id });
    return answer;
  }

  /** The server's answers. It sends nothing else: no sampling, logging or progress is asked of it. */
  async send(message: JSONRPCMessage): Promise<void> {
    if (!('id' in message) || !('result' in message || 'error' in message)) return;
    const pending = this.pending.get(message.id as number);
    if (!pending) return;
    this.pending.delete(message.id as number);
    pending.resolve({ ...message, id: pending.clientId } as Answer);
  }
}
