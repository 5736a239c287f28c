import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { IDP_HOST, IDP_TLS } from './upstream-idp.js';

/**
 * A stand-in for GitHub, which a test cannot run: it speaks GitHub's HTTP API over TLS as
 * `https://secure.example.test` — the OAuth web application flow (`GET /login/oauth/authorize`, with PKCE, then
 * `POST /login/oauth/access_token`, which answers errors with HTTP 200 as GitHub does) and the REST API
 * (`GET /user`, `GET /user/emails`, which need a token and a User-Agent). The person "signed in at GitHub" is
 * whoever the test names with `signInAs`.
 */
export interface GithubUser {
  id: number;
  login: string;
  name: string | null;
  emails: Array<{ email: string; primary: boolean; verified: boolean }>;
}

export interface GithubFake {
  port: number;
  route: string;
  clientId: string;
  clientSecret: string;
  signInAs(user: GithubUser): void;
  /** Requests the fake received, for assertions (method, path). */
  requests: Array<{ method: string; path: string }>;
  close(): Promise<void>;
}

const base64url = (value: Buffer) => value.toString('base64url');

export async function startGithubFake(): Promise<GithubFake> {
  const clientId = `Iv1.${randomBytes(8).toString('hex')}`;
  const clientSecret = randomBytes(20).toString('hex');
  let current: GithubUser | undefined;
  const codes = new Map<string, { user: GithubUser; redirectUri: string; challenge: string }>();
  const tokens = new Map<string, GithubUser>();
  const requests: GithubFake['requests'] = [];

  const json = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify(body));
  };

  async function readBody(request: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', `https://${IDP_HOST}`);
    requests.push({ method: request.method ?? 'GET', path: url.pathname });
    if (request.method === 'GET' && url.pathname === '/login/oauth/authorize') {
      const redirectUri = url.searchParams.get('redirect_uri');
      if (url.searchParams.get('client_id') !== clientId || !redirectUri) return json(response, 404, {});
      if (!current) return json(response, 401, { message: 'not signed in' });
      const code = randomBytes(10).toString('hex');
      codes.set(code, { user: current, redirectUri, challenge: url.searchParams.get('code_challenge') ?? '' });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      response.writeHead(302, { location: back.toString() });
      return response.end();
    }
    if (request.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      const form = new URLSearchParams(await readBody(request));
      const grant = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret) {
        return json(response, 200, { error: 'incorrect_client_credentials' });
      }
      const verifier = form.get('code_verifier') ?? '';
      if (
        !grant ||
        grant.redirectUri !== form.get('redirect_uri') ||
        base64url(createHash('sha256').update(verifier).digest()) !== grant.challenge
      ) {
        return json(response, 200, { error: 'bad_verification_code' });
      }
      const token = `gho_${randomBytes(18).toString('hex')}`;
      tokens.set(token, grant.user);
      return json(response, 200, { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' });
    }
    if (request.method === 'GET' && (url.pathname === '/user' || url.pathname === '/user/emails')) {
      if (!request.headers['user-agent']) return json(response, 403, { message: 'User-Agent required' });
      const token = /^(?:Bearer|token) (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      const user = token ? tokens.get(token) : undefined;
      if (!user) return json(response, 401, { message: 'Bad credentials' });
      if (url.pathname === '/user') return json(response, 200, { id: user.id, login: user.login, name: user.name });
      return json(
        response,
        200,
        user.emails.map((entry) => ({ ...entry, visibility: entry.primary ? 'private' : null })),
      );
    }
    return json(response, 404, { message: 'Not Found' });
  }

  const server: Server = createServer(IDP_TLS, (request, response) => {
    handle(request, response).catch(() => json(response, 500, {}));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    route: `${IDP_HOST}=127.0.0.1:${port}`,
    clientId,
    clientSecret,
    requests,
    signInAs(user) {
      current = user;
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
