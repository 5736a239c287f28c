// Currencies of SCA challenges (ARCHITECTURE.md "Payment step-up factors"; ISO 4217) and the payer's sentence.

/** Supported ISO 4217 codes and their minor units (the digits after the decimal point). */
export const CURRENCY_MINOR_UNITS: Readonly<Record<string, number>> = {
  EUR: 2,
  USD: 2,
  GBP: 2,
  CHF: 2,
  SEK: 2,
  DKK: 2,
  NOK: 2,
  PLN: 2,
  JPY: 0,
};

export const SUPPORTED_CURRENCIES = Object.keys(CURRENCY_MINOR_UNITS);

export const isSupportedCurrency = (code: string) => Object.hasOwn(CURRENCY_MINOR_UNITS, code);

/**
 * An amount in minor units written for people, by integer arithmetic only: the currency's minor units after the
 * point (none for JPY), thousands grouped with commas. `123456` EUR is `1,234.56`; `1500` JPY is `1,500`.
 */
export function formatAmount(amountMinor: number, currency: string): string {
  const digits = CURRENCY_MINOR_UNITS[currency] ?? 2;
  const text = String(amountMinor).padStart(digits + 1, '0');
  const whole = text.slice(0, text.length - digits).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return digits === 0 ? whole : `${whole}.${text.slice(text.length - digits)}`;
}

/** The sentence the payer is shown, verbatim, and that the attestation carries. */
export function payerSentence(input: { amount_minor: number; currency: string; payee: string; payee_name: string }) {
  return `Pay ${formatAmount(input.amount_minor, input.currency)} ${input.currency} to ${input.payee_name} (payee ${input.payee})`;
}
