/**
 * Whether an RFC 3339 instant is one the database can compare with: a real calendar day and time (not February
 * 30th, not a leap second, which the format allows but no stored instant is) from year 1 on (the database has no
 * year 0). Anything else would fail the statement instead of answering 422.
 */
export function isComparableInstant(text: string): boolean {
  const at = new Date(text);
  if (Number.isNaN(at.getTime()) || at.getUTCFullYear() < 1) return false;
  // The date and time as written (without zone) must be the ones parsed: a rolled-over day or second is not.
  const written = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})/.exec(text);
  if (!written) return false;
  const [, year, month, day, hour, minute, second] = written.map(Number) as number[];
  const local = new Date(Date.UTC(year!, month! - 1, day!, hour!, minute!, second!));
  local.setUTCFullYear(year!);
  return (
    local.getUTCFullYear() === year &&
    local.getUTCMonth() === month! - 1 &&
    local.getUTCDate() === day &&
    local.getUTCHours() === hour &&
    local.getUTCMinutes() === minute &&
    local.getUTCSeconds() === second
  );
}
