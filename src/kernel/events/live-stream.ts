import { EventEmitter } from 'node:events';
import { eq, sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import type { Database } from '../db/index.js';
import { type EventEnvelope, envelopeOf } from './events.js';
import { events } from './schema.js';

/**
 * After-commit fan-out of events to live subscribers (the Command Center stream). Every node publishes each event
 * it commits, and every node's subscribers see every node's events: through Redis pub/sub when `REDIS_URL` is set,
 * otherwise through the database's LISTEN/NOTIFY (a PostgreSQL server, or the embedded database, whose
 * notifications reach every node of the process that opened it). Without either, in process only.
 */
export interface LiveStream {
  publish(event: EventEnvelope): Promise<void>;
  /**
   * Every event published from now on, on any node. `lost` is told when delivery from the other nodes broke (the
   * Redis or LISTEN connection dropped), so events may have been missed: a subscriber that promises a gap-free
   * stream ends there.
   */
  subscribe(listener: (event: EventEnvelope) => void, lost?: () => void): () => void;
  /**
   * Resolves once this node hears every node's events (at once in process); rejects when that cannot be
   * established within `READY_TIMEOUT_MS` or the stream is closed.
   */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** The database channel events travel on; the payload starts with the schema, as installations may share one. */
export const LIVE_EVENTS_CHANNEL = 'svc_events';
/** NOTIFY refuses payloads of 8000 bytes or more: a larger envelope travels as its id and is read back. */
const NOTIFY_PAYLOAD_MAX_BYTES = 7900;
/** How long `ready` waits for the cross-node connection. */
export const READY_TIMEOUT_MS = 3000;

type LiveDatabase = Pick<Database, 'kind' | 'schema' | 'db' | 'listen'>;

export function createLiveStream(options: {
  redisUrl?: string | undefined;
  /** The Redis channel. */
  channel: string;
  /** Without Redis, the database whose LISTEN/NOTIFY carries events between nodes. */
  database?: LiveDatabase | undefined;
}): LiveStream {
  if (options.redisUrl) return redisLiveStream(options.redisUrl, options.channel);
  if (options.database) return databaseLiveStream(options.database);
  const local = localFanOut();
  return {
    async publish(event) {
      local.deliver(event);
    },
    subscribe: local.subscribe,
    ready: async () => local.ensureOpen(),
    async close() {
      local.close();
    },
  };
}

/** The subscribers of one node. */
function localFanOut() {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  let closed = false;
  return {
    deliver(event: EventEnvelope) {
      if (!closed) emitter.emit('event', event);
    },
    lost() {
      emitter.emit('lost');
    },
    subscribe(listener: (event: EventEnvelope) => void, lost?: () => void) {
      emitter.on('event', listener);
      if (lost) emitter.on('lost', lost);
      return () => {
        emitter.off('event', listener);
        if (lost) emitter.off('lost', lost);
      };
    },
    ensureOpen() {
      if (closed) throw new Error('live stream closed');
    },
    isClosed: () => closed,
    close() {
      closed = true;
      // Subscribers hear that nothing more is coming, then are let go.
      emitter.emit('lost');
      emitter.removeAllListeners();
    },
  };
}

function redisLiveStream(redisUrl: string, channel: string): LiveStream {
  const local = localFanOut();
  const publisher = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  const subscriber = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  let subscribing: Promise<unknown> | undefined;
  subscriber.on('message', (_channel: string, message: string) => {
    local.deliver(JSON.parse(message) as EventEnvelope);
  });
  // A dropped connection may have lost messages (it reconnects and subscribes again by itself).
  subscriber.on('close', () => {
    if (subscribing) local.lost();
  });
  publisher.on('error', () => {});
  subscriber.on('error', () => {});
  const subscribe = () =>
    (subscribing ??= subscriber.subscribe(channel).catch((error: unknown) => {
      subscribing = undefined;
      throw error;
    }));
  return {
    async publish(event) {
      await publisher.publish(channel, JSON.stringify(event));
    },
    subscribe(listener, lost) {
      // Hearing the other nodes starts with the first subscriber; `ready` tells when it is established.
      subscribe().catch(() => undefined);
      return local.subscribe(listener, lost);
    },
    async ready() {
      local.ensureOpen();
      await withTimeout(subscribe(), 'Redis');
    },
    async close() {
      local.close();
      // QUIT when connected, so close resolves once Redis has let go of both connections (as the limiter does).
      await Promise.all([publisher, subscriber].map(quit));
    },
  };
}

function databaseLiveStream(database: LiveDatabase): LiveStream {
  const local = localFanOut();
  const prefix = `${database.schema} `;
  let live = false;
  let listening: Promise<void> | undefined;
  const liveWaiters = new Set<() => void>();
  // Envelopes read back by id keep their place: deliveries run one after another, in notification order.
  let delivery = Promise.resolve();

  async function deliver(message: string): Promise<void> {
    if (message.startsWith('@')) {
      const envelope = await readEnvelope(database, message.slice(1));
      if (envelope) local.deliver(envelope);
    } else {
      local.deliver(JSON.parse(message) as EventEnvelope);
    }
  }

  function listen(): Promise<void> {
    listening ??= database.listen(LIVE_EVENTS_CHANNEL, {
      message(payload) {
        if (!payload.startsWith(prefix) || local.isClosed()) return;
        const message = payload.slice(prefix.length);
        delivery = delivery.then(() => deliver(message)).catch(() => undefined);
      },
      status(isLive) {
        if (live && !isLive) local.lost();
        live = isLive;
        if (isLive) for (const wake of [...liveWaiters]) wake();
      },
    });
    return listening;
  }

  return {
    async publish(event) {
      const json = JSON.stringify(event);
      const message = Buffer.byteLength(json) > NOTIFY_PAYLOAD_MAX_BYTES ? `@${event.id}` : json;
      await database.db.execute(sql`select pg_notify(${LIVE_EVENTS_CHANNEL}, ${prefix + message})`);
    },
    subscribe(listener, lost) {
      // Hearing the other nodes starts with the first subscriber; `ready` tells when it is established.
      listen().catch(() => undefined);
      return local.subscribe(listener, lost);
    },
    async ready() {
      local.ensureOpen();
      await listen();
      if (live) return;
      let wake!: () => void;
      const isLive = new Promise<void>((resolve) => {
        wake = resolve;
      });
      liveWaiters.add(wake);
      try {
        await withTimeout(isLive, 'the database notification connection');
      } finally {
        liveWaiters.delete(wake);
      }
    },
    async close() {
      // The LISTEN connection closes with the database.
      local.close();
    },
  };
}

/** An event as the Command Center envelope, read back by id (its notification would have been too large). */
async function readEnvelope(database: LiveDatabase, id: string): Promise<EventEnvelope | undefined> {
  const [row] = await database.db.select().from(events).where(eq(events.id, id));
  return row && envelopeOf(row);
}

async function withTimeout<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`live stream: ${what} did not answer`)), READY_TIMEOUT_MS);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function quit(client: Redis): Promise<void> {
  if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
  else client.disconnect();
}
