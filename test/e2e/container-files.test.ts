import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startService, type TestService } from '../support/service.js';

/**
 * The Dockerfile, compose.yaml, the proxy's configuration and .dockerignore, linted against the repository: the
 * files they copy and mount exist, every variable they set is one the service reads, the entry point is the `svc`
 * launcher, and the HEALTHCHECK command itself passes against a running service. (No image is built here.)
 */

const ROOT = join(import.meta.dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

interface Instruction {
  keyword: string;
  args: string;
}

/** Dockerfile instructions, continuation lines joined, comments and parser directives dropped. */
function instructions(text: string): Instruction[] {
  const joined = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/);
      return { keyword: keyword!.toUpperCase(), args: rest.join(' ') };
    });
}

/** Every source file of the service (and its launcher) that may read the environment. */
function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return sourceFiles(path);
    return /\.(ts|cjs)$/.test(name) && !name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Variables the service reads: `env.NAME`, `env['NAME']`, `process.env.NAME` and the config helpers' `(env, 'NAME'`. */
function variablesRead(): Set<string> {
  const names = new Set<string>();
  for (const file of [...sourceFiles('src'), ...sourceFiles('bin')]) {
    const text = read(file);
    for (const match of text.matchAll(/\benv(?:\.|\[')([A-Z][A-Z0-9_]*)/g)) names.add(match[1]!);
    for (const match of text.matchAll(/\(env, '([A-Z][A-Z0-9_]*)'/g)) names.add(match[1]!);
  }
  return names;
}

const dockerfile = instructions(read('Dockerfile'));
const compose = parse(read('compose.yaml'), { merge: true }) as {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
};

interface ComposeService {
  image?: string;
  build?: string | { context: string };
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
  ports?: string[];
}

const nodes = Object.entries(compose.services).filter(([, service]) => service.build !== undefined);

describe('Dockerfile', () => {
  it('builds in stages and runs the last one from node:24-slim as a user other than root', () => {
    const stages = dockerfile.filter((line) => line.keyword === 'FROM');
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) expect(stage.args).toMatch(/^node:24-slim\b/);
    const last = dockerfile.slice(dockerfile.lastIndexOf(stages.at(-1)!));
    const users = last.filter((line) => line.keyword === 'USER');
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)!.args).not.toMatch(/^(root|0)(:|$)/);
  });

  it('copies only paths that exist and that .dockerignore lets into the build context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'));
    for (const must of ['node_modules', '.git', '.data', 'dist']) expect(ignored).toContain(must);
    const copies = dockerfile.filter((line) => line.keyword === 'COPY' && !line.args.includes('--from='));
    expect(copies.length).toBeGreaterThan(0);
    for (const copy of copies) {
      const sources = copy.args
        .split(/\s+/)
        .filter((arg) => !arg.startsWith('--'))
        .slice(0, -1);
      for (const source of sources) {
        expect(existsSync(join(ROOT, source)), `COPY ${source}`).toBe(true);
        expect(ignored, `COPY ${source} is in .dockerignore`).not.toContain(source);
      }
    }
    // What the service reads at run time from beside dist/ (migrations, data files) is in the image.
    const copied = copies.map((copy) => copy.args.split(/\s+/)[0]);
    for (const needed of ['bin', 'migrations', 'data', 'package.json']) expect(copied).toContain(needed);
  });

  it('enters through the svc launcher with `serve`, and sets only variables the service reads', () => {
    const entrypoint = JSON.parse(dockerfile.findLast((line) => line.keyword === 'ENTRYPOINT')!.args) as string[];
    const command = JSON.parse(dockerfile.findLast((line) => line.keyword === 'CMD')!.args) as string[];
    expect(entrypoint).toEqual(['node', 'bin/svc.cjs']);
    expect(existsSync(join(ROOT, entrypoint[1]!))).toBe(true);
    expect(command).toEqual(['serve']);
    const known = variablesRead();
    const set = dockerfile
      .filter((line) => line.keyword === 'ENV')
      .flatMap((line) => [...line.args.matchAll(/([A-Z][A-Z0-9_]*)=/g)].map((match) => match[1]!));
    expect(set.length).toBeGreaterThan(0);
    for (const name of set) expect(known, `ENV ${name}`).toContain(name);
  });
});

describe('compose.yaml', () => {
  it('runs PostgreSQL, Redis, a mail catcher and three svc nodes behind a proxy', () => {
    const images = Object.values(compose.services).map((service) => service.image ?? '');
    expect(images.some((image) => image.startsWith('postgres:'))).toBe(true);
    expect(images.some((image) => image.startsWith('redis:'))).toBe(true);
    expect(images.some((image) => image.startsWith('axllent/mailpit'))).toBe(true);
    expect(nodes).toHaveLength(3);
    for (const [, node] of nodes) expect(node.build).toBe('.');
    for (const [name, service] of Object.entries(compose.services)) {
      for (const dependency of Object.keys(service.depends_on ?? {})) {
        expect(Object.keys(compose.services), `${name} depends on ${dependency}`).toContain(dependency);
      }
    }
  });

  it('sets on each node only variables the service reads, with the secrets required from outside', () => {
    const known = variablesRead();
    for (const [name, node] of nodes) {
      const environment = node.environment ?? {};
      for (const variable of Object.keys(environment)) expect(known, `${name}: ${variable}`).toContain(variable);
      expect(environment.SVC_ENV).toBe('production');
      // Never a literal secret in the file: `${NAME:?…}` makes compose refuse to start without it.
      expect(environment.SECRET_KEY).toMatch(/^\$\{SECRET_KEY:\?/);
      expect(environment.DATABASE_URL).toMatch(/^postgres:\/\/svc:\$\{POSTGRES_PASSWORD:\?[^}]*\}@postgres:5432\//);
      expect(environment.REDIS_URL).toBe('redis://redis:6379');
      expect(environment.SMTP_URL).toBe('smtp://mailpit:1025');
    }
  });

  it('mounts a proxy configuration that exists and balances over every node on its PORT, checking /readyz', () => {
    const proxy = Object.values(compose.services).find((service) => service.image?.startsWith('caddy:'));
    expect(proxy).toBeDefined();
    const mounts = (proxy!.volumes ?? []).map((volume) => volume.split(':'));
    const caddyfile = mounts.find(([, target]) => target === '/etc/caddy/Caddyfile');
    expect(caddyfile).toBeDefined();
    expect(existsSync(join(ROOT, caddyfile![0]!))).toBe(true);
    const config = read(caddyfile![0]!);
    for (const [name, node] of nodes) expect(config).toContain(`${name}:${node.environment?.PORT}`);
    expect(config).toMatch(/health_uri \/readyz/);
    for (const [name] of nodes) expect(Object.keys(proxy!.depends_on ?? {})).toContain(name);
  });
});

describe('HEALTHCHECK', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService();
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('is Node fetching /readyz (slim images have no curl), and it passes against a running service', async () => {
    const healthcheck = dockerfile.find((line) => line.keyword === 'HEALTHCHECK')!;
    const exec = JSON.parse(healthcheck.args.slice(healthcheck.args.indexOf('CMD') + 3).trim()) as string[];
    expect(exec.slice(0, 2)).toEqual(['node', '-e']);
    expect(exec[2]).toContain('/readyz');
    const port = new URL(svc.url).port;
    const run = promisify(execFile);
    await expect(run(process.execPath, exec.slice(1), { env: { PORT: port } })).resolves.toBeDefined();
    // And it fails when nothing answers there.
    await expect(run(process.execPath, exec.slice(1), { env: { PORT: '1' } })).rejects.toThrow();
  });
});
