import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * The admin console (docs/console.md): the single-page application `npm run build` puts in dist/console,
 * served under /console. Hashed assets are immutable and cached for a year; index.html is answered for every
 * other /console path (the console's own routes) and never cached, so a deployment is picked up at once.
 *
 * The policy allows only the console's own files: no inline script or style (the build emits none), API calls
 * to this origin only, never framed.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/** src/web and dist/web both sit two levels below the project root. */
export const CONSOLE_DIST = fileURLToPath(new URL('../../dist/console/', import.meta.url));

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};
/** Vite's output names: `name-<hash>.<ext>`, no directories; anything else is not ours to serve. */
const ASSET_NAME = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.[a-z0-9]+$/;

const OPTIONS = { config: { auth: 'public' as const }, schema: { hide: true } };

export function registerConsoleAssets(app: FastifyInstance, opts: { dir?: string } = {}): void {
  const dir = opts.dir ?? CONSOLE_DIST;
  const files = new Map<string, Buffer>();
  // index.html is read again when the build changes it (its modification time), so a rebuild needs no restart.
  let index: { mtimeMs: number; body: Buffer } | undefined;

  async function indexHtml(): Promise<Buffer | undefined> {
    const path = `${dir}index.html`;
    const info = await stat(path).catch(() => undefined);
    if (!info) return undefined;
    if (index?.mtimeMs !== info.mtimeMs) index = { mtimeMs: info.mtimeMs, body: await readFile(path) };
    return index.body;
  }

  async function sendIndex(reply: FastifyReply) {
    const body = await indexHtml();
    reply.header('content-security-policy', CONSOLE_CSP).header('x-content-type-options', 'nosniff');
    if (!body) {
      return reply
        .code(503)
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send('The console is not built. Run `npm run build` (it builds dist/console).');
    }
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(body);
  }

  app.get('/console', OPTIONS, (_request, reply) => sendIndex(reply));
  app.get<{ Params: { '*': string } }>('/console/*', OPTIONS, async (request, reply) => {
    const rest = request.params['*'];
    if (!rest.startsWith('assets/')) return sendIndex(reply);
    const name = rest.slice('assets/'.length);
    const type = TYPES[extname(name)];
    reply.header('content-security-policy', CONSOLE_CSP).header('x-content-type-options', 'nosniff');
    if (!ASSET_NAME.test(name) || !type) return reply.code(404).send({ detail: 'Not found' });
    let body = files.get(name);
    if (!body) {
      body = await readFile(`${dir}assets/${name}`).catch(() => undefined);
      if (!body) return reply.code(404).send({ detail: 'Not found' });
      files.set(name, body);
    }
    return reply.header('cache-control', 'public, max-age=31536000, immutable').type(type).send(body);
  });
}
