import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractLink, extractToken, startSmtpServer, type TestSmtpServer } from '../../../test/support/smtp.js';
import { createMailer, type Mailer } from './mailer.js';

const FROM = 'no-reply@id.example.test';

/** A link as the service sends it: a 256-bit token in base64url is 43 characters. */
function resetLink(): { token: string; link: string } {
  const token = randomBytes(32).toString('base64url');
  expect(token).toHaveLength(43);
  return { token, link: `https://id.example.test/reset-password/confirm?tenant=acme-corporation&token=${token}` };
}

describe('mailer over SMTP', () => {
  let smtp: TestSmtpServer;
  let mailer: Mailer;
  const logged: unknown[] = [];

  beforeAll(async () => {
    smtp = await startSmtpServer();
    mailer = createMailer({ smtpUrl: smtp.url, mailFrom: FROM, logger: { info: (obj) => logged.push(obj) } });
  });
  afterAll(async () => {
    await mailer.close();
    await smtp.close();
  });

  it('delivers the text with its long link intact through quoted-printable folding', async () => {
    const { token, link } = resetLink();
    // A line longer than 76 characters and a non-ASCII word make nodemailer use quoted-printable with soft breaks.
    const text = `Grüße, Ada!\n\nReset your password within 30 minutes: ${link}\n\nIf you did not ask, ignore this mail.`;
    await mailer.send({ to: 'ada@example.com', subject: 'Réinitialiser le mot de passe', text });

    const mail = await smtp.waitFor('ada@example.com');
    expect(mail.raw).toMatch(/Content-Transfer-Encoding: quoted-printable/i);
    expect(mail.raw).toMatch(/=\r\n/);
    expect(mail).toMatchObject({ from: FROM, to: ['ada@example.com'], subject: 'Réinitialiser le mot de passe' });
    expect(mail.text.trim()).toBe(text);
    expect(extractLink(mail.text)).toBe(link);
    expect(extractToken(mail.text)).toBe(token);
    expect(logged).toEqual([]);
  });

  it('keeps the text part beside an HTML part', async () => {
    const { token, link } = resetLink();
    await mailer.send({
      to: 'Bob@Example.com',
      subject: 'Sign in',
      text: `Sign in: ${link}.`,
      html: `<p><a href="${link}">Sign in</a></p>`,
    });
    const mail = await smtp.waitFor((m) => m.subject === 'Sign in');
    expect(mail.to).toEqual(['bob@example.com']);
    expect(mail.headers['content-type']).toMatch(/^multipart\/alternative/);
    expect(extractToken(mail.text)).toBe(token);
    expect(mail.html).toContain(link);
  });

  it('decodes base64 text and hands out successive mails to one recipient in order', async () => {
    await mailer.send({ to: 'carol@example.com', subject: 'first', text: 'コードは 123456 です' });
    await mailer.send({ to: 'carol@example.com', subject: 'second', text: 'code 654321' });
    const first = await smtp.waitFor('carol@example.com');
    const second = await smtp.waitFor('carol@example.com');
    expect(first.raw).toMatch(/Content-Transfer-Encoding: base64/i);
    expect(first.text.trim()).toBe('コードは 123456 です');
    expect(second.subject).toBe('second');
    await expect(smtp.waitFor('carol@example.com', 200)).rejects.toThrow(/no mail to carol@example.com/);
  });

  it('refuses a message without text', async () => {
    await expect(mailer.send({ to: 'dave@example.com', subject: 'empty', text: ' ' })).rejects.toThrow(/text part/);
    await expect(mailer.send({ to: 'dave@example.com\r\nBcc: x@y', subject: 's', text: 't' })).rejects.toThrow();
  });
});

describe('mailer without SMTP', () => {
  it('logs recipient, subject and the full text with its link, and nothing else', async () => {
    const entries: { obj: object; msg: string }[] = [];
    const mailer = createMailer({ mailFrom: FROM, logger: { info: (obj, msg) => entries.push({ obj, msg }) } });
    const { token, link } = resetLink();
    const text = `Verify your address: ${link}`;
    await mailer.send({ to: 'erin@example.com', subject: 'Verify', text, html: '<p>secret html</p>' });
    await mailer.close();

    expect(entries).toHaveLength(1);
    expect(entries[0]!.obj).toEqual({ mail: { to: 'erin@example.com', subject: 'Verify', text } });
    expect(extractToken(JSON.stringify(entries[0]!.obj).replace(/\\n/g, '\n'))).toBe(token);
  });

  it('in production never logs the text: its link is a secret', async () => {
    const entries: { obj: object; msg: string }[] = [];
    const logger = { info: (obj: object, msg: string) => entries.push({ obj, msg }) };
    const mailer = createMailer({ mailFrom: FROM, logger, logText: false });
    const { token, link } = resetLink();
    await mailer.send({ to: 'erin@example.com', subject: 'Reset', text: `Reset: ${link}` });
    expect(entries).toEqual([
      { obj: { mail: { to: 'erin@example.com', subject: 'Reset' } }, msg: 'mail dropped (no SMTP_URL; text withheld)' },
    ]);
    expect(JSON.stringify(entries)).not.toContain(token);
  });
});
