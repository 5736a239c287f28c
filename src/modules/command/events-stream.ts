// The live event stream (Part B 4.8, 5.7, 6.1): Server-Sent Events from the live tip, confined like the list, fed
// by the kernel's after-commit fan-out (every node's events, through Redis or the database's LISTEN/NOTIFY).
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../../kernel/auth/principal.js';
import type { EventEnvelope } from '../../kernel/events/index.js';
import { HttpError } from '../../kernel/http/errors.js';
import type { CommandDeps } from './deps.js';
import { readScope } from './scope.js';

/** A comment line every this often keeps proxies and clients from taking a quiet stream for a dead one. */
export const STREAM_KEEPALIVE_MS = 15_000;
/**
 * What one connection may hold unsent (bytes the socket has not taken). A consumer that stops reading fills it,
 * and its stream is closed then: memory per stream stays bounded whatever the event rate.
 */
export const STREAM_BUFFER_MAX_BYTES = 1024 * 1024;
/**
 * Streams one principal may hold open on one node at once. Each may buffer up to STREAM_BUFFER_MAX_BYTES and is
 * visited for every event committed anywhere, so without a bound one credential could hold memory and fan-out
 * work without limit; a console or a SIEM needs a few.
 */
export const STREAMS_PER_PRINCIPAL = 10;

export interface StreamQuery {
  tenant_id?: string;
}

/** Opens streams and, when the service stops, ends them. */
export function createEventStreams(deps: CommandDeps) {
  /** Each open stream, with how to end it. */
  const open = new Map<ServerResponse, (why: string) => void>();
  // A stream lives no longer than an access token does: the caller then connects again with a current
  // credential, so a revoked one stops streaming within one token lifetime.
  const maxLifetimeMs = deps.config.accessTokenTtlSeconds * 1000;
  /** Set once the service stops: no stream opens after the open ones were ended. */
  let stopping = false;
  /** Open streams per principal (organization, actor type and id) on this node. */
  const held = new Map<string, number>();

  return {
    /**
     * Answers the stream on `reply`: 200 `text/event-stream`, a comment once the stream is live, then each event
     * in scope as one `data:` line of its envelope, and `: keepalive` comments. No `id:` lines: there is no
     * resume, a stream starts at the live tip.
     */
    async open(request: FastifyRequest, reply: FastifyReply, principal: Principal, query: StreamQuery) {
      const scope = await readScope(deps, principal, query.tenant_id);
      try {
        await deps.events.live.ready();
      } catch {
        throw new HttpError(503, 'The live event stream is unavailable: this node cannot hear the other nodes now', {
          'retry-after': '5',
        });
      }
      if (stopping) throw new HttpError(503, 'The service is stopping', { 'retry-after': '5' });
      const holder = `${principal.tenantId}:${principal.actor.type}:${principal.actor.id}`;
      const holding = held.get(holder) ?? 0;
      if (holding >= STREAMS_PER_PRINCIPAL) {
        throw new HttpError(
          429,
          `Too many open event streams: at most ${STREAMS_PER_PRINCIPAL} per caller; close one and connect again`,
          { 'retry-after': '5' },
        );
      }
      const inScope = (event: EventEnvelope) => scope.tenantId === null || event.tenant_id === scope.tenantId;
      reply.hijack();
      const res = reply.raw;
      // The client may have gone while the subscription was being set up: then there is nothing to hold open.
      if (request.raw.socket.destroyed) {
        res.destroy();
        return;
      }
      // The headers hooks set so far (security headers), with what the answer's own hooks would add.
      const headers = Object.entries(reply.getHeaders()).filter(([, value]) => value !== undefined);
      res.writeHead(200, {
        ...(Object.fromEntries(headers) as OutgoingHttpHeaders),
        'x-request-id': request.id,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-store, no-transform',
        // Reverse proxies (nginx) would otherwise buffer the stream.
        'x-accel-buffering': 'no',
        connection: 'close',
      });
      let ended = false;
      const end = (why: string) => {
        if (ended) return;
        ended = true;
        request.log.info({ reason: why }, 'command event stream ended');
        res.end();
      };
      open.set(res, end);
      held.set(holder, holding + 1);
      const send = (chunk: string) => {
        if (ended || res.destroyed) return;
        res.write(chunk);
        if (res.writableLength > STREAM_BUFFER_MAX_BYTES) {
          ended = true;
          request.log.warn(
            { buffered_bytes: res.writableLength, limit_bytes: STREAM_BUFFER_MAX_BYTES },
            'command event stream closed: the consumer is not reading',
          );
          // Dropping the connection frees what it buffered.
          res.destroy();
        }
      };

      const unsubscribe = deps.events.live.subscribe(
        (event) => {
          if (inScope(event)) send(`data: ${JSON.stringify(event)}\n\n`);
        },
        // Events may have been missed: the stream ends rather than go on with a silent gap.
        () => end('delivery from the other nodes was interrupted'),
      );
      const keepalive = setInterval(() => send(': keepalive\n\n'), STREAM_KEEPALIVE_MS);
      const lifetime = setTimeout(() => end('the stream reached its maximum lifetime'), maxLifetimeMs);
      keepalive.unref();
      lifetime.unref();
      res.once('close', () => {
        ended = true;
        unsubscribe();
        clearInterval(keepalive);
        clearTimeout(lifetime);
        open.delete(res);
        const left = (held.get(holder) ?? 1) - 1;
        if (left > 0) held.set(holder, left);
        else held.delete(holder);
      });
      // Subscribed: from here on every event committed anywhere reaches this stream.
      send(': stream open\n\n');
    },

    /** Ends every open stream (the service is stopping). */
    closeAll() {
      stopping = true;
      for (const end of open.values()) end('the service is stopping');
    },

    /** How many streams this node holds. */
    size: () => open.size,
  };
}

export type EventStreams = ReturnType<typeof createEventStreams>;
