import { walletErrors } from './wallet.errors';

/** Sandbox credits; everything else is an ISO 4217 code. */
export const CREDIT = 'CREDIT';
const CURRENCY = /^(?:CREDIT|[A-Z]{3})$/;

/** `CREDIT` or three uppercase letters; empty means CREDIT (README.md "Choices"). */
export function parseCurrency(value: string | undefined): string {
  if (value === undefined || value === '') return CREDIT;
  if (!CURRENCY.test(value)) throw walletErrors.unsupportedCurrency(value);
  return value;
}
