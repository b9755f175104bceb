/**
 * Hook for telemetry matching signals (impression / click / shortlist / award counts turned into a
 * per-candidate boost 0–1). With TELEMETRY_GRPC_URL it is telemetry's GetMatchingBoosts
 * (src/clients/telemetry-matching.client.ts, which answers nothing when telemetry fails); without
 * it the default answers nothing. Candidates without a boost get `matching` absent and are scored
 * on the four market signals only. Boosts outside 0–1 are clamped.
 */
export interface MatchingSignals {
  /** Boosts of sellers for a contract, by seller id. */
  forSellers(contractId: string, sellerIds: readonly string[]): Promise<ReadonlyMap<string, number>>;
  /** Boosts of open contracts for a seller, by contract id. */
  forContracts(sellerId: string, contractIds: readonly string[]): Promise<ReadonlyMap<string, number>>;
}

export const noMatchingSignals: MatchingSignals = {
  forSellers: async () => new Map(),
  forContracts: async () => new Map(),
};

export function clampBoost(v: number | undefined): number | null {
  if (v === undefined || !Number.isFinite(v)) return null;
  return Math.min(1, Math.max(0, v));
}
