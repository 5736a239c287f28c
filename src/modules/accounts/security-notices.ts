import type { AfterAnswer } from '../../kernel/after-answer.js';
import type { Clock } from '../../kernel/clock.js';
import { afterCommit, type Tx } from '../../kernel/db/index.js';
import type { Mailer } from '../../kernel/mail/index.js';
import * as store from './store.js';

/**
 * Tells an account's owner, by mail after commit, of a change to how the account signs in (a second factor or
 * a passkey added or removed, a recovery code used): someone holding only a password or a session must not be
 * able to change the account unnoticed. The mail carries no secret.
 */
export function createSecurityNotices(deps: {
  config: { baseUrl: string };
  mailer: Mailer;
  clock: Clock;
  logger: { warn(obj: object, msg: string): void };
  afterAnswer: AfterAnswer;
}) {
  return async function notify(tx: Tx, userId: string, subject: string, change: string): Promise<void> {
    const to = (await store.userById(tx, userId))?.email;
    if (!to) return;
    const text =
      `${change}\n\nWhen: ${deps.clock.now().toISOString()}\n\n` +
      `If this was not you, change your password at ${deps.config.baseUrl} and sign out everywhere at once.\n`;
    afterCommit(tx, () => {
      deps.afterAnswer.run(
        () => deps.mailer.send({ to, subject, text }),
        (error) => deps.logger.warn({ err: error.message }, 'security notice not delivered'),
      );
    });
  };
}

export type SecurityNotices = ReturnType<typeof createSecurityNotices>;
