import { unprocessable } from '../../kernel/http/index.js';

/** Part B 9.5: a release version is strictly `vX.Y.Z` (no leading zeros, no pre-release or build suffix). */
const RELEASE_VERSION = /^v(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})$/;
export const isReleaseVersion = (version: string) => RELEASE_VERSION.test(version);

const CHECKSUM = /^[0-9a-f]{64}$/;

/**
 * An object key names one object under the store's directory or prefix: relative, `/`-separated, no `.` or `..`
 * segment, no empty segment, printable ASCII letters, digits and `._-+`, so it can never leave the store.
 */
const OBJECT_KEY = /^[A-Za-z0-9][A-Za-z0-9._+-]*(\/[A-Za-z0-9][A-Za-z0-9._+-]*)*$/;
export const isObjectKey = (key: string) =>
  key.length <= 1024 && OBJECT_KEY.test(key) && !key.split('/').some((part) => part === '.' || part === '..');

/** The fields of a release to publish, checked (422 naming the field), the checksum lowercased. */
export function checkedRelease(input: { version: string; object_key: string; checksum_sha256: string }) {
  if (!isReleaseVersion(input.version)) throw unprocessable('version: must be a release version vX.Y.Z');
  const checksum = input.checksum_sha256.toLowerCase();
  if (!CHECKSUM.test(checksum)) throw unprocessable('checksum_sha256: must be 64 hexadecimal characters (SHA-256)');
  if (!isObjectKey(input.object_key)) {
    throw unprocessable(
      'object_key: must be a relative path of letters, digits and ._+- segments separated by /, without . or ..',
    );
  }
  return { version: input.version, objectKey: input.object_key, checksum };
}
