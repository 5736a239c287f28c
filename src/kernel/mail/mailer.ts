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
  /**
   * Without SMTP, whether logged mails carry their text. Texts hold single-use links and codes: only outside
   * production, where following them from the log is how a developer works.
   */
  logText?: boolean;
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

/**
 * Without SMTP_URL each mail is logged instead: recipient, subject and (outside production) the text with its
 * link, so a developer can follow it. In production a link is a secret and never reaches the log.
 */
function logMailer(logger: MailLogger, logText: boolean): Mailer {
  return {
    async send(message) {
      check(message);
      const mail = { to: message.to, subject: message.subject, ...(logText ? { text: message.text } : {}) };
      logger.info({ mail }, logText ? 'mail not sent (no SMTP_URL)' : 'mail dropped (no SMTP_URL; text withheld)');
    },
    async close() {},
  };
}

export function createMailer(options: MailerOptions): Mailer {
  return options.smtpUrl
    ? smtpMailer(options.smtpUrl, options.mailFrom)
    : logMailer(options.logger, options.logText ?? true);
}
