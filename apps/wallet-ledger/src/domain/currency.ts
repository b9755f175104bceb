import { CREDIT, isSupportedCurrency } from '@exchange/platform';
import { walletErrors } from './wallet.errors';

/** Sandbox credits; everything else is an ISO 4217 code. */
export { CREDIT };

/** `CREDIT` or an ISO 4217 code (the shared list); empty means CREDIT (README.md "Choices"). */
export function parseCurrency(value: string | undefined): string {
  if (value === undefined || value === '') return CREDIT;
  if (!isSupportedCurrency(value)) throw walletErrors.unsupportedCurrency(value);
  return value;
}
