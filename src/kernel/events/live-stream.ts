import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import type { EventEnvelope } from './events.js';

/**
 * After-commit fan-out of events to live subscribers (the Command Center stream). In-process by default;
 * with Redis every node publishes to one channel and every node's subscribers see every event.
 */
export interface LiveStream {
  publish(event: EventEnvelope): Promise<void>;
  subscribe(listener: (event: EventEnvelope) => void): () => void;
  close(): Promise<void>;
}

export function createLiveStream(options: { redisUrl?: string | undefined; channel: string }): LiveStream {
  const local = new EventEmitter();
  local.setMaxListeners(0);
  if (!options.redisUrl) {
    return {
      async publish(event) {
        local.emit('event', event);
      },
      subscribe(listener) {
        local.on('event', listener);
        return () => local.off('event', listener);
      },
      async close() {
        local.removeAllListeners();
      },
    };
  }
  const publisher = new Redis(options.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  const subscriber = new Redis(options.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  let subscribed = false;
  subscriber.on('message', (_channel: string, message: string) => {
    local.emit('event', JSON.parse(message) as EventEnvelope);
  });
  publisher.on('error', () => {});
  subscriber.on('error', () => {});
  return {
    async publish(event) {
      await publisher.publish(options.channel, JSON.stringify(event));
    },
    subscribe(listener) {
      if (!subscribed) {
        subscribed = true;
        subscriber.subscribe(options.channel).catch(() => undefined);
      }
      local.on('event', listener);
      return () => local.off('event', listener);
    },
    async close() {
      local.removeAllListeners();
      // QUIT when connected, so close resolves once Redis has let go of both connections (as the limiter does).
      await Promise.all([publisher, subscriber].map(quit));
    },
  };
}

async function quit(client: Redis): Promise<void> {
  if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
  else client.disconnect();
}
