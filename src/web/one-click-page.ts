import type { FastifyInstance } from 'fastify';
import type { Csrf } from './csrf.js';
import { html, paragraph, sendPage } from './html.js';
import { csrfRefused, incompleteLink, PAGE_OPTIONS, renderRefusal, tokenOf } from './pages.js';

/**
 * A mailed link whose whole action is one click (confirm an address, confirm a request). GET only shows the
 * button: mail scanners fetch links, and a fetch must not spend the token; the person's click posts the form,
 * which calls the same service as the API.
 */
export function registerOneClickPage(
  app: FastifyInstance,
  csrf: Csrf,
  page: {
    path: string;
    title: string;
    prompt: string;
    button: string;
    act(token: string): Promise<void>;
    /** Why a link can stop working, shown when it did. */
    refusalHint: string;
    done: { title: string; message: string };
  },
) {
  app.get(page.path, PAGE_OPTIONS, async (request, reply) => {
    const token = tokenOf(request.query);
    if (!token) return incompleteLink(reply, page.title);
    return sendPage(
      reply,
      200,
      page.title,
      html`${paragraph(page.prompt)}
<form method="post" action="${page.path}">
${csrf.field(csrf.issue(request, reply))}
<input type="hidden" name="token" value="${token}">
<button type="submit">${page.button}</button>
</form>`,
    );
  });

  app.post(page.path, PAGE_OPTIONS, async (request, reply) => {
    if (csrfRefused(request, reply, csrf)) return reply;
    const token = tokenOf(request.body);
    if (!token) return incompleteLink(reply, page.title);
    try {
      await page.act(token);
    } catch (error) {
      return renderRefusal(reply, error, 'This link does not work', page.refusalHint);
    }
    return sendPage(reply, 200, page.done.title, paragraph(page.done.message));
  });
}
