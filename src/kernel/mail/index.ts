export { createMailer, type Mailer, type MailerOptions, type MailLogger, type MailMessage } from './mailer.js';
