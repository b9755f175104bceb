// A lower-case DNS name as the exchange names merchants (wallet-ledger's settlement accounts,
// commerce's merchant domains): labels of 1-63 [a-z0-9-], not starting or ending with "-", joined
// by ".", 1-253 characters in all — no scheme, port, path or trailing dot.

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const MAX_NAME = 253;

export function isDnsName(value: string): boolean {
  return typeof value === 'string' && value.length >= 1 && value.length <= MAX_NAME && value.split('.').every((label) => LABEL.test(label));
}
