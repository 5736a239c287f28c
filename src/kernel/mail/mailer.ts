import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  /** Required: every message has a text part carrying its full link or code. */
  text: string;
  html?: string | undefined;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

/** The part of a pino logger the mailer uses. */
export interface MailLogger {
  info(obj: object, msg: string): void;
}

export interface MailerOptions {
  /** `smtp://` or `smtps://`; nodemailer URL query options (`?requireTLS=true`, `?pool=true`) are honoured. */
  smtpUrl?: string | undefined;
  mailFrom: string;
  logger: MailLogger;
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[?::1\]?)$/i;

function check(message: MailMessage): void {
  if (!message.text?.trim()) throw new Error('mail: every message needs a text part');
  // nodemailer encodes header values, but a line break in an address or subject is always a caller bug.
  if (/[\r\n]/.test(message.to) || /[\r\n]/.test(message.subject)) throw new Error('mail: line break in a header');
}

function smtpMailer(smtpUrl: string, mailFrom: string): Mailer {
  const { protocol, hostname } = new URL(smtpUrl);
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    // A plain smtp:// URL to a local relay (tests, a sidecar) must not try STARTTLS against a server without a
    // certificate. Options in the URL's query come after these, so `?ignoreTLS=false` still wins.
    ignoreTLS: protocol === 'smtp:' && LOOPBACK.test(hostname),
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    logger: false,
  });
  return {
    async send(message) {
      check(message);
      await transport.sendMail({
        from: mailFrom,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
      });
    },
    async close() {
      transport.close();
    },
  };
}

/** Without SMTP_URL each mail is logged (recipient, subject and text with its link) so a developer can follow it. */
function logMailer(logger: MailLogger): Mailer {
  return {
    async send(message) {
      check(message);
      logger.info(
        { mail: { to: message.to, subject: message.subject, text: message.text } },
        'mail not sent (no SMTP_URL)',
      );
    },
    async close() {},
  };
}

export function createMailer(options: MailerOptions): Mailer {
  return options.smtpUrl ? smtpMailer(options.smtpUrl, options.mailFrom) : logMailer(options.logger);
}
