import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
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

/**
 * The one stylesheet: the shared design tokens (styles/tokens.css, also imported by the console) and the hosted
 * pages' rules (styles/hosted.css), sent inline and allowed by its hash, so no other style and no script can
 * run. Comments and runs of white space are dropped; the build copies both files next to this module.
 */
export const STYLE = ['tokens.css', 'hosted.css']
  .map((file) => readFileSync(new URL(`./styles/${file}`, import.meta.url), 'utf8'))
  .join('\n')
  .replace(/\/\*[\s\S]*?\*\//g, '')
  .replace(/\s+/g, ' ')
  .trim();
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

/** What a page knows about where it is: the organization it belongs to, and whether it needs a wider card. */
export interface PageOptions {
  /** The organization's display name, shown above the card and in the title; absent when the page cannot know. */
  organization?: string | undefined;
  /** A card wide enough for a table (the onboarding plan). */
  wide?: boolean;
}

/** The organization's mark: its first letter, a stand-in for a logo (no branding setting holds one). */
function brand(organization: string): SafeHtml {
  const initial = [...organization.trim()][0]?.toLocaleUpperCase() ?? '';
  return html`<header class="brand"><span class="brand-mark" aria-hidden="true">${initial}</span><span class="brand-name">${organization}</span></header>`;
}

export function layout(title: string, body: SafeHtml, options: PageOptions = {}): SafeHtml {
  const organization = options.organization?.trim() || undefined;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="color-scheme" content="light dark">
<title>${organization ? `${title} · ${organization}` : title}</title>
<style>${new SafeHtml(STYLE)}</style>
</head>
<body><div class="${options.wide ? 'page wide' : 'page'}">
${organization ? brand(organization) : ''}
<main>
<h1>${title}</h1>
${body}
</main>
</div></body>
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
  options: PageOptions = {},
): FastifyReply {
  return reply
    .code(status)
    .headers(headers)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', headers['content-security-policy'] ?? PAGE_CSP)
    .header('x-frame-options', 'DENY')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .send(layout(title, body, options).value);
}

export const paragraph = (text: string) => html`<p>${text}</p>`;
export const errorBox = (text: string) => html`<p class="error" role="alert">${text}</p>`;
/** A box for good news or a next step (a mail was sent, the action is done). */
export const noticeBox = (text: string, kind: 'notice' | 'success' = 'notice') =>
  html`<p class="${kind}" role="status">${text}</p>`;
