import { afterAll, beforeAll } from 'vitest';
import { invitationSteps } from '../support/organizations.js';
import { startService, type TestService } from '../support/service.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.js';

/** Shared set-up of the invitation e2e files (not a test file itself). */
export const DAY = 86_400_000;

/** The public address the service names in the links it mails (the tests read the links; nothing opens them). */
export const PUBLIC_BASE_URL = 'https://id.example.test';

/**
 * Registers the file's hooks: an SMTP server and the service mailing through it are started before the file's
 * tests and stopped after them. Answers the running service (`svc()`, read at each call), `api` paths on it, and
 * the invitation steps over both.
 */
export function invitationsUnderTest() {
  let svc: TestService | undefined;
  let smtp: TestSmtpServer | undefined;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    svc = await startService({ SMTP_URL: smtp.url, BASE_URL: PUBLIC_BASE_URL });
  });
  afterAll(async () => {
    await svc?.close();
    await smtp?.close();
  });
  const running = () => svc!;
  const api = (path: string) => `${running().url}/api/v1${path}`;
  return { svc: running, api, ...invitationSteps(running, () => smtp!) };
}
