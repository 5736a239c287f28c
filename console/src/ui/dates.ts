/** A date and time as the console shows it ("Nov 27, 2026, 6:29 AM"), or a dash when there is none. */
export const when = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' }) : '—';
