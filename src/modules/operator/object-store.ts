import { createHash } from 'node:crypto';
import { resolve, sep } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Config, ReleaseStoreConfig } from '../../config.js';
import { hmacSha256Hex, purposeKey, secretsEqual } from '../../kernel/crypto/index.js';

/** How long a presigned download link works (Part B 4.10: "a few minutes"), whoever holds it. */
export const PRESIGNED_URL_SECONDS = 300;

/** The path of the `file://` store's own object route (ARCHITECTURE.md "Licence signing"). */
export const OBJECTS_PATH = '/api/v1/distribution/objects';

export interface ReleaseObject {
  key: string;
  checksumSha256: string;
  sizeBytes: number;
}

/** Where release bytes live: hands out a short-lived URL for one object, valid without any credential. */
export interface ReleaseObjectStore {
  kind: 'file' | 's3';
  presign(object: ReleaseObject, now: Date): Promise<string>;
}

/** The store RELEASE_STORE names, or undefined (downloads answer 503). */
export function createReleaseObjectStore(
  config: Pick<Config, 'baseUrl' | 'releaseStore'>,
  secretKey: Buffer,
): { store: ReleaseObjectStore | undefined; files: FileObjectLinks | undefined } {
  const settings = config.releaseStore;
  if (!settings) return { store: undefined, files: undefined };
  if (settings.kind === 's3') return { store: s3Store(settings), files: undefined };
  const files = createFileObjectLinks(settings.dir, config.baseUrl, secretKey);
  return { store: { kind: 'file', presign: async (object, now) => files.presign(object, now) }, files };
}

function s3Store(settings: Extract<ReleaseStoreConfig, { kind: 's3' }>): ReleaseObjectStore {
  const client = new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint, forcePathStyle: true } : {}),
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
  });
  return {
    kind: 's3',
    // Signed with the service's clock, so the link's life is judged from the instant it was handed out.
    presign: (object, now) =>
      getSignedUrl(client, new GetObjectCommand({ Bucket: settings.bucket, Key: `${settings.prefix}${object.key}` }), {
        expiresIn: PRESIGNED_URL_SECONDS,
        signingDate: now,
      }),
  };
}

/**
 * The `file://` store's links: `GET /api/v1/distribution/objects/<key>?expires&sha256&size&signature`, an HMAC
 * (SHA-256, a key derived from SECRET_KEY for this purpose only) over the key, the expiry and the object's
 * expected checksum and size, so every node of the installation honours a link any node handed out.
 */
export interface FileObjectLinks {
  presign(object: ReleaseObject, now: Date): string;
  /** The object a link names when its signature holds and it has not expired; undefined otherwise. */
  verify(key: string, query: ObjectLinkQuery, now: Date): ReleaseObject | undefined;
  /** The file of a key, never outside the store's directory. */
  pathOf(key: string): string | undefined;
}

export interface ObjectLinkQuery {
  expires: string;
  sha256: string;
  size: string;
  signature: string;
}

export function createFileObjectLinks(dir: string, baseUrl: string, secretKey: Buffer): FileObjectLinks {
  const key = purposeKey(secretKey, 'release-object-links');
  const root = resolve(dir);
  const sign = (objectKey: string, expires: string, sha256: string, size: string) =>
    hmacSha256Hex(key, `${objectKey}\n${expires}\n${sha256}\n${size}`);
  return {
    presign(object, now) {
      const expires = String(Math.floor(now.getTime() / 1000) + PRESIGNED_URL_SECONDS);
      const size = String(object.sizeBytes);
      const query = new URLSearchParams({
        expires,
        sha256: object.checksumSha256,
        size,
        signature: sign(object.key, expires, object.checksumSha256, size),
      });
      const path = object.key.split('/').map(encodeURIComponent).join('/');
      return `${baseUrl}${OBJECTS_PATH}/${path}?${query}`;
    },
    verify(objectKey, query, now) {
      const expected = sign(objectKey, query.expires, query.sha256, query.size);
      if (!secretsEqual(expected, query.signature)) return undefined;
      if (!/^\d{1,12}$/.test(query.expires) || Number(query.expires) * 1000 <= now.getTime()) return undefined;
      return { key: objectKey, checksumSha256: query.sha256, sizeBytes: Number(query.size) };
    },
    pathOf(objectKey) {
      const path = resolve(root, objectKey);
      return path.startsWith(root + sep) ? path : undefined;
    },
  };
}

/**
 * Passes an object's bytes through while hashing them and holds the last chunk back until the whole object is
 * known to match its catalogue checksum and size: a mismatch fails the stream before the answer is complete, so
 * a client never receives a whole corrupted object as if it were good.
 */
export class ChecksumGate extends Transform {
  private readonly hash = createHash('sha256');
  private held: Buffer | undefined;
  private seen = 0;

  constructor(
    private readonly expectedSha256: string,
    private readonly expectedSize: number,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.hash.update(chunk);
    this.seen += chunk.length;
    const previous = this.held;
    this.held = chunk;
    done(null, previous);
  }

  override _flush(done: TransformCallback): void {
    const digest = this.hash.digest('hex');
    if (this.seen !== this.expectedSize || !secretsEqual(digest, this.expectedSha256)) {
      done(new Error('release object does not match its catalogue checksum'));
      return;
    }
    done(null, this.held);
  }
}
