import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { html, layout, PAGE_CSP, pageCsp, STYLE } from './html.js';

const styleOf = (page: string) => /<style>([\s\S]*?)<\/style>/.exec(page)?.[1];
const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

describe('hosted page policy and layout', () => {
  it('allows exactly the inline stylesheet the layout sends, by its hash, and nothing inline besides', () => {
    const page = layout('Sign in', html`<p>x</p>`).value;
    const style = styleOf(page);
    expect(style).toBe(STYLE);
    expect(PAGE_CSP).toBe(
      `default-src 'none'; style-src ${hashOf(style!)}; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    );
    expect(PAGE_CSP).not.toContain('unsafe-inline');
    expect(PAGE_CSP).not.toContain('script-src');
  });

  it('names extra form targets in form-action only', () => {
    const csp = pageCsp(['https://app.example', 'com.example.app:']);
    expect(csp).toContain("form-action 'self' https://app.example com.example.app:");
    expect(csp.replace(/form-action [^;]*/, '')).not.toContain('app.example');
  });

  it('sends the shared tokens with the hosted rules, without comments', () => {
    const tokens = readFileSync(new URL('./styles/tokens.css', import.meta.url), 'utf8');
    expect(tokens).not.toMatch(/^\s*[a-z][\w-]*\s*[{,]/m); // tokens only: no element selector
    expect(STYLE).toContain('--color-accent:');
    expect(STYLE).toContain('@media (prefers-color-scheme: dark)');
    expect(STYLE).toContain(':focus-visible');
    expect(STYLE).not.toContain('/*');
  });

  it('shows the organization escaped, with its initial, in the header and the title', () => {
    const page = layout('Sign in', html``, { organization: '<Acme & Co>' }).value;
    expect(page).toContain('<title>Sign in · &lt;Acme &amp; Co&gt;</title>');
    expect(page).toContain('<span class="brand-mark" aria-hidden="true">&lt;</span>');
    expect(page).toContain('<span class="brand-name">&lt;Acme &amp; Co&gt;</span>');
    expect(page).not.toContain('<Acme');
  });

  it('has no organization header when the page does not know it, and a wide card on request', () => {
    const page = layout('Confirm', html``).value;
    expect(page).not.toContain('class="brand"');
    expect(page).toContain('<div class="page">');
    expect(layout('Plan', html``, { wide: true, organization: '  ' }).value).toContain('<div class="page wide">');
  });
});
