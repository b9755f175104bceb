import { errorInfoFromGrpc, type Logger, type PromiseClient } from '@exchange/platform';
import type { telemetryV1 } from '@exchange/proto';
import type { MatchingSignals } from '../insights/matching';

export type TelemetryClient = PromiseClient<typeof telemetryV1.TelemetryServiceService>;

/** Recommendations wait at most this long for boosts; after it they rank without them. */
export const MATCHING_DEADLINE_MS = 500;

/**
 * The MatchingSignals hook answered by telemetry's GetMatchingBoosts (as a service: no actor).
 * Boosts are an extra: any failure (down, slow, an error) is logged at warn and answered with no
 * boosts, so recommendations keep working on the market's own signals when telemetry does not.
 */
export class TelemetryMatchingSignals implements MatchingSignals {
  constructor(
    private readonly telemetry: TelemetryClient,
    private readonly logger: Logger,
    private readonly deadlineMs = MATCHING_DEADLINE_MS,
  ) {}

  forSellers(contractId: string, sellerIds: readonly string[]): Promise<ReadonlyMap<string, number>> {
    return this.ask({ contractId, sellerIds: [...sellerIds], contractIds: [] }, sellerIds.length, { contract_id: contractId });
  }

  forContracts(sellerId: string, contractIds: readonly string[]): Promise<ReadonlyMap<string, number>> {
    return this.ask({ sellerId, sellerIds: [], contractIds: [...contractIds] }, contractIds.length, { seller_id: sellerId });
  }

  private async ask(req: telemetryV1.GetMatchingBoostsRequest, candidates: number, about: Record<string, string>): Promise<ReadonlyMap<string, number>> {
    if (candidates === 0) return new Map();
    try {
      const res = await this.telemetry.getMatchingBoosts(req, { deadlineMs: this.deadlineMs });
      return new Map(res.boosts.map((b) => [b.candidateId, b.boost]));
    } catch (err) {
      const info = errorInfoFromGrpc(err);
      this.logger.warn({ ...about, code: info.code, err: info.message }, 'telemetry matching boosts unavailable; ranking without them');
      return new Map();
    }
  }
}
