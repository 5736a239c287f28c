import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';

/** Markup that is already safe: produced by `html` or `raw`, never by string concatenation of input. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for element content and quoted attribute values alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char]!);
}

function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === undefined || value === null || value === false) return '';
  return escapeHtml(String(value));
}

/** Tagged template: every interpolated value is escaped unless it is SafeHtml (nested `html` fragments). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new SafeHtml(out);
}

/** The one stylesheet, inline and allowed by its hash: no inline script and no other style can run. */
const STYLE = [
  'body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f5f6f8;color:#1c1f24}',
  'main{max-width:28rem;margin:4rem auto;padding:2rem;background:#fff;border-radius:8px;box-shadow:0 1px 3px #0002}',
  'h1{font-size:1.4rem;margin-top:0}label{display:block;margin:1rem 0 .25rem;font-weight:600}',
  'input[type=password]{width:100%;box-sizing:border-box;padding:.5rem;font-size:1rem}',
  'button{margin-top:1.25rem;padding:.6rem 1.2rem;font-size:1rem;border:0;border-radius:6px;background:#2356c7;color:#fff;cursor:pointer}',
  '.error{padding:.75rem;border-radius:6px;background:#fdecea;color:#8a1c12}',
  '.note{margin-top:2rem;font-size:.9rem;color:#555}code{font-size:.85rem}',
].join('');
const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/**
 * A strict policy for hosted pages: nothing loads but the hashed style, forms post only to this origin and no
 * other site may frame the page (clickjacking).
 */
export const PAGE_CSP = pageCsp([]);

/**
 * The page policy whose `form-action` also allows the given sources: browsers hold a form's redirects to
 * `form-action` too, so a page whose form ends in a redirect to a client (the OpenID Provider's sign-in and
 * consent pages) names that client's origin.
 */
export function pageCsp(formTargets: readonly string[]): string {
  return [
    "default-src 'none'",
    `style-src 'sha256-${STYLE_HASH}'`,
    ["form-action 'self'", ...formTargets].join(' '),
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

export function layout(title: string, body: SafeHtml): SafeHtml {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<style>${new SafeHtml(STYLE)}</style>
</head>
<body><main>
<h1>${title}</h1>
${body}
</main></body>
</html>
`;
}

/**
 * Sends a page with its security headers. Pages carry link tokens, so nothing is cached and no referrer
 * leaves them.
 */
export function sendPage(
  reply: FastifyReply,
  status: number,
  title: string,
  body: SafeHtml,
  headers: Record<string, string> = {},
): FastifyReply {
  return reply
    .code(status)
    .headers(headers)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', headers['content-security-policy'] ?? PAGE_CSP)
    .header('x-frame-options', 'DENY')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .send(layout(title, body).value);
}

export const paragraph = (text: string) => html`<p>${text}</p>`;
export const errorBox = (text: string) => html`<p class="error" role="alert">${text}</p>`;
