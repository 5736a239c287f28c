// A Redis adapter for oidc-provider, shaped like the example adapter of node-oidc-provider (example/adapters/
// redis.js): one key per model instance (a hash for consumable ones, whose `consumed` field is set on use), a
// list per grant of the keys it minted (revokeByGrantId), and index keys for session uids and user codes.
// Every key starts with `prefix`, so a run on a shared Redis removes exactly what it wrote (`removeAll`).
import Redis from 'ioredis';

const GRANTABLE = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
]);
const CONSUMABLE = new Set(['AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest']);

export function redisAdapter(url, prefix) {
  const client = new Redis(url, { keyPrefix: prefix, lazyConnect: false });
  const grantKey = (id) => `grant:${id}`;
  const userCodeKey = (code) => `userCode:${code}`;
  const uidKey = (uid) => `uid:${uid}`;

  class RedisAdapter {
    constructor(name) {
      this.name = name;
    }

    key(id) {
      return `${this.name}:${id}`;
    }

    async upsert(id, payload, expiresIn) {
      const key = this.key(id);
      const multi = client.multi();
      if (CONSUMABLE.has(this.name)) multi.hset(key, { payload: JSON.stringify(payload) });
      else multi.set(key, JSON.stringify(payload));
      if (expiresIn) multi.expire(key, expiresIn);
      if (GRANTABLE.has(this.name) && payload.grantId) {
        const list = grantKey(payload.grantId);
        multi.rpush(list, key);
        // The grant's list lives as long as its longest-lived token.
        const ttl = await client.ttl(list);
        if (expiresIn > ttl) multi.expire(list, expiresIn);
      }
      if (payload.userCode) {
        multi.set(userCodeKey(payload.userCode), id);
        if (expiresIn) multi.expire(userCodeKey(payload.userCode), expiresIn);
      }
      if (payload.uid) {
        multi.set(uidKey(payload.uid), id);
        if (expiresIn) multi.expire(uidKey(payload.uid), expiresIn);
      }
      await multi.exec();
    }

    async find(id) {
      if (CONSUMABLE.has(this.name)) {
        const data = await client.hgetall(this.key(id));
        if (!data || Object.keys(data).length === 0) return undefined;
        const { payload, ...rest } = data;
        return { ...rest, ...JSON.parse(payload) };
      }
      const data = await client.get(this.key(id));
      return data ? JSON.parse(data) : undefined;
    }

    async findByUid(uid) {
      const id = await client.get(uidKey(uid));
      return id ? this.find(id) : undefined;
    }

    async findByUserCode(userCode) {
      const id = await client.get(userCodeKey(userCode));
      return id ? this.find(id) : undefined;
    }

    async destroy(id) {
      await client.del(this.key(id));
    }

    async revokeByGrantId(grantId) {
      // The list holds keys as written (ioredis adds the prefix to key arguments, not to values).
      const keys = await client.lrange(grantKey(grantId), 0, -1);
      const multi = client.multi();
      for (const key of keys) multi.del(key);
      multi.del(grantKey(grantId));
      await multi.exec();
    }

    async consume(id) {
      await client.hset(this.key(id), 'consumed', Math.floor(Date.now() / 1000));
    }
  }

  /** Deletes every key of this run (SCAN with the prefix, then DEL without it: ioredis adds it). */
  async function removeAll() {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await client.del(...keys.map((key) => key.slice(prefix.length)));
    } while (cursor !== '0');
  }

  /** The account store of the Redis setup: one JSON value per account (see findAccount in the server). */
  const accounts = {
    save: (sub, claims) => client.set(`account:${sub}`, JSON.stringify(claims)),
    find: async (sub) => {
      const data = await client.get(`account:${sub}`);
      return data ? JSON.parse(data) : undefined;
    },
  };

  return { RedisAdapter, accounts, removeAll, quit: () => client.quit() };
}
