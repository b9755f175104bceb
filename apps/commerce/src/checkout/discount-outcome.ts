import type { UcpCheckout } from '../domain/ucp-types';

// Which requested discount codes the merchant applied and which it refused (UCP discount
// extension): applied ones appear in `discounts.applied[].code` (matching is case-insensitive),
// refused ones as warnings `discount_code_*` whose path points at `$.discounts.codes[i]` (or whose
// content names the code).

export interface DiscountOutcome {
  applied: string[];
  rejected: Array<{ code: string; reason: string }>;
}

const PATH_INDEX = /^\$\.discounts\.codes\[(\d+)\]$/;

export function discountOutcome(codes: readonly string[], checkout: UcpCheckout): DiscountOutcome {
  const appliedCodes = new Set((checkout.discounts?.applied ?? []).map((a) => (typeof a.code === 'string' ? a.code.toUpperCase() : '')).filter((c) => c !== ''));
  const rejected = new Map<number, string>();
  for (const m of checkout.messages ?? []) {
    if (typeof m.code !== 'string' || !m.code.startsWith('discount_code_')) continue;
    const byPath = typeof m.path === 'string' ? PATH_INDEX.exec(m.path) : null;
    const index = byPath ? Number(byPath[1]) : codes.findIndex((c, i) => !rejected.has(i) && typeof m.content === 'string' && m.content.includes(c));
    if (index >= 0 && index < codes.length && !rejected.has(index)) rejected.set(index, m.code);
  }
  const applied: string[] = [];
  const refused: DiscountOutcome['rejected'] = [];
  codes.forEach((code, i) => {
    const reason = rejected.get(i);
    if (reason !== undefined) refused.push({ code, reason });
    else if (appliedCodes.has(code.toUpperCase())) applied.push(code);
    else refused.push({ code, reason: 'not_applied' });
  });
  return { applied, rejected: refused };
}
