import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A mail as the test SMTP server received it. */
export interface ReceivedMail {
  /** Envelope sender (MAIL FROM). */
  from: string;
  /** Envelope recipients (RCPT TO), lowercased. */
  to: string[];
  /** Decoded `Subject` (RFC 2047 encoded words resolved). */
  subject: string;
  /** The first text/plain part, transfer encoding and charset decoded, line ends as `\n`. */
  text: string;
  html: string | undefined;
  /** Top-level headers, lowercased names, unfolded; the first of repeated headers. */
  headers: Record<string, string>;
  raw: string;
}

export type MailPredicate = (mail: ReceivedMail) => boolean;

export interface TestSmtpServer {
  /** `smtp://127.0.0.1:<port>`, ready for SMTP_URL. */
  url: string;
  messages: ReceivedMail[];
  /**
   * The first received mail matching the predicate, or sent to the address, that no earlier call returned
   * (so successive waits for one recipient see successive mails); waits for it up to `timeoutMs`.
   */
  waitFor(match: MailPredicate | string, timeoutMs?: number): Promise<ReceivedMail>;
  /** From now on each mail is received but not acknowledged (the sender waits) until `release()` is called. */
  hold(): () => void;
  close(): Promise<void>;
}

interface Entity {
  headers: Record<string, string>;
  /** Body as a byte-preserving latin1 string. */
  body: string;
}

function parseEntity(raw: string): Entity {
  const blank = /\r?\n\r?\n/.exec(raw);
  const startsBlank = /^\r?\n/.exec(raw);
  const headerBlock = startsBlank ? '' : blank ? raw.slice(0, blank.index) : raw;
  const body = startsBlank ? raw.slice(startsBlank[0].length) : blank ? raw.slice(blank.index + blank[0].length) : '';
  const headers: Record<string, string> = {};
  // RFC 5322 section 2.2.3: a line starting with white space continues the previous header.
  const unfolded = headerBlock.replace(/\r?\n(?=[ \t])/g, '');
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!(name in headers)) headers[name] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

function param(value: string, name: string): string | undefined {
  const match = new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]*))`, 'i').exec(value);
  return match ? (match[1] ?? match[2]) : undefined;
}

function decodeCharset(bytes: Buffer, charset = 'utf-8'): string {
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/** Quoted-printable (RFC 2045 section 6.7): soft line breaks removed, `=XX` to bytes. */
function decodeQuotedPrintable(body: string): Buffer {
  const joined = body.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(joined.charCodeAt(i) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

function decodeBody(entity: Entity): string {
  const encoding = (entity.headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const charset = param(entity.headers['content-type'] ?? '', 'charset');
  const bytes =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(entity.body)
      : encoding === 'base64'
        ? Buffer.from(entity.body.replace(/\s+/g, ''), 'base64')
        : Buffer.from(entity.body, 'latin1');
  // Line ends are CRLF on the wire (RFC 5322 section 2.3); tests compare with the `\n` text the service wrote.
  return decodeCharset(bytes, charset).replace(/\r\n/g, '\n');
}

/** RFC 2047 encoded words, as nodemailer writes non-ASCII subjects. */
function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(?==\?)/g, '$1')
    .replace(/=\?([^?]+)\?([bBqQ])\?([^?]*)\?=/g, (_, charset: string, kind: string, data: string) => {
      const bytes =
        kind.toUpperCase() === 'B' ? Buffer.from(data, 'base64') : decodeQuotedPrintable(data.replace(/_/g, ' '));
      return decodeCharset(bytes, charset.replace(/\*.*$/, ''));
    });
}

function multipartChildren(entity: Entity, boundary: string): Entity[] {
  const delimiter = `--${boundary}`;
  const parts: string[][] = [];
  let current: string[] | undefined;
  for (const line of entity.body.split(/\r?\n/)) {
    const bare = line.trimEnd();
    if (bare === delimiter || bare === `${delimiter}--`) {
      if (current) parts.push(current);
      current = bare === delimiter ? [] : undefined;
      if (!current) break;
      continue;
    }
    current?.push(line);
  }
  return parts.map((lines) => parseEntity(lines.join('\r\n')));
}

function findParts(entity: Entity, found: { text?: string; html?: string }): void {
  const contentType = entity.headers['content-type'] ?? 'text/plain';
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type.startsWith('multipart/')) {
    const boundary = param(contentType, 'boundary');
    if (boundary) for (const child of multipartChildren(entity, boundary)) findParts(child, found);
    return;
  }
  if (/^attachment/i.test(entity.headers['content-disposition'] ?? '')) return;
  if (type === 'text/plain' && found.text === undefined) found.text = decodeBody(entity);
  if (type === 'text/html' && found.html === undefined) found.html = decodeBody(entity);
}

export function parseMail(raw: Buffer, envelope: { from: string; to: string[] }): ReceivedMail {
  const latin1 = raw.toString('latin1');
  const entity = parseEntity(latin1);
  const found: { text?: string; html?: string } = {};
  findParts(entity, found);
  return {
    from: envelope.from,
    to: envelope.to,
    subject: decodeWords(entity.headers.subject ?? ''),
    text: found.text ?? '',
    html: found.html,
    headers: entity.headers,
    raw: raw.toString('utf8'),
  };
}

function sentTo(address: string): MailPredicate {
  const wanted = address.trim().toLowerCase();
  return (mail) =>
    mail.to.includes(wanted) ||
    (mail.headers.to ?? '')
      .toLowerCase()
      .split(/[,<>\s]+/)
      .includes(wanted);
}

export async function startSmtpServer(): Promise<TestSmtpServer> {
  const messages: ReceivedMail[] = [];
  const claimed = new Set<ReceivedMail>();
  const waiters = new Set<{ match: MailPredicate; deliver: (mail: ReceivedMail) => void }>();
  let held: Promise<void> | undefined;

  const receive = (mail: ReceivedMail) => {
    messages.push(mail);
    for (const waiter of waiters) {
      if (!waiter.match(mail)) continue;
      waiters.delete(waiter);
      claimed.add(mail);
      waiter.deliver(mail);
      return;
    }
  };

  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    closeTimeout: 1000,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username ?? 'test' });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', async () => {
        await held;
        const { mailFrom, rcptTo } = session.envelope;
        try {
          receive(
            parseMail(Buffer.concat(chunks), {
              from: mailFrom ? mailFrom.address : '',
              to: rcptTo.map((recipient) => recipient.address.toLowerCase()),
            }),
          );
          callback();
        } catch (err) {
          callback(err as Error);
        }
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor(match, timeoutMs = 5000) {
      const predicate = typeof match === 'string' ? sentTo(match) : match;
      const ready = messages.find((mail) => !claimed.has(mail) && predicate(mail));
      if (ready) {
        claimed.add(ready);
        return Promise.resolve(ready);
      }
      return new Promise((resolve, reject) => {
        const waiter = {
          match: predicate,
          deliver: (mail: ReceivedMail) => {
            clearTimeout(timer);
            resolve(mail);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          const seen = messages.map((mail) => `${mail.to.join(',')}: ${mail.subject}`).join('; ') || 'none';
          const wanted = typeof match === 'string' ? `to ${match}` : 'matching the predicate';
          reject(new Error(`no mail ${wanted} within ${timeoutMs} ms (received: ${seen})`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    hold() {
      let release!: () => void;
      held = new Promise<void>((resolve) => {
        release = resolve;
      });
      return () => {
        held = undefined;
        release();
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first http(s) URL in a mail text, without trailing sentence punctuation. */
export function extractLink(text: string): string {
  const match = /https?:\/\/[^\s<>"'`]+/.exec(text);
  if (!match) throw new Error(`no link in mail text: ${JSON.stringify(text.slice(0, 200))}`);
  return match[0].replace(/[.,;:!?)\]]+$/, '');
}

/** The `token` query parameter of the first link in a mail text. */
export function extractToken(text: string): string {
  const link = extractLink(text);
  const token = new URL(link).searchParams.get('token');
  if (!token) throw new Error(`no token parameter in ${link}`);
  return token;
}
