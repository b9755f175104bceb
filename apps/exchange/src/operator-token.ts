import { randomBytes } from 'node:crypto';

/** The sandbox operator token: OPERATOR_TOKEN when set, else a fresh random one per start. */
export function resolveOperatorToken(configured?: string): { token: string; generated: boolean } {
  if (configured) return { token: configured, generated: false };
  return { token: `sbx_${randomBytes(24).toString('base64url')}`, generated: true };
}
