import { createServiceClient, type PromiseClient } from '@exchange/platform';
import { marketV1, marketV1Integrity } from '@exchange/proto';
import { awardedContract, startMarketHarness, type MarketHarness, type TestAgent } from './market-harness';

export type IntegrityClient = PromiseClient<typeof marketV1Integrity.MarketIntegrityServiceService>;
const IS = marketV1Integrity.IntegrityState;

/**
 * What the integrity specs share: a market harness with an integrity client, reset to normal with
 * every switch off after each test (the database is shared by the whole file), and helpers. Call
 * it inside the describe block; `h` and `integrity` are set once beforeAll ran.
 */
export function integrityTestKit(name: string) {
  const kit = {
    h: undefined as unknown as MarketHarness,
    integrity: undefined as unknown as IntegrityClient,
    setState: (state: marketV1Integrity.IntegrityState, reason = 'test') =>
      kit.integrity.setIntegrityState({ state, reason, idempotencyKey: '' }, kit.h.operator()),
    setSwitch: (switchName: string, enabled: boolean, reason = 'test') =>
      kit.integrity.setKillSwitch({ name: switchName, enabled, reason, idempotencyKey: '' }, kit.h.operator()),
    /** An awarded contract with a delivered result, ready for the buyer's report. */
    async delivered() {
      const a = await awardedContract(kit.h);
      const { result } = await kit.h.client.submitResult(
        { contractId: a.contract.contractId, sellerId: '', summary: 'done', artifactRefs: [], payloadJson: '{}', idempotencyKey: '' },
        kit.h.as(a.seller),
      );
      return { ...a, result: result! };
    },
    verify(buyer: TestAgent, contractId: string, resultId: string, verdict: 'pass' | 'fail' = 'pass') {
      const checks = [{ name: 'ok', ok: verdict === 'pass' }];
      const signature = kit.h.signReport(buyer, { verifierId: buyer.agentId, resultId, verdict, score: 1, checks });
      return kit.h.client.submitVerification(
        {
          contractId,
          verifierId: '',
          resultId,
          verdict: verdict === 'pass' ? marketV1.Verdict.VERDICT_PASS : marketV1.Verdict.VERDICT_FAIL,
          score: 1,
          checks,
          signature,
          idempotencyKey: '',
        },
        kit.h.as(buyer),
      );
    },
  };

  beforeAll(async () => {
    kit.h = await startMarketHarness({ name });
    kit.integrity = createServiceClient(marketV1Integrity.MarketIntegrityServiceService, `127.0.0.1:${kit.h.market.grpcPort}`);
  }, 120_000);
  afterAll(async () => {
    await kit.h?.close();
  });
  afterEach(async () => {
    const { integrity: now } = await kit.integrity.getIntegrityState({});
    for (const k of now!.killSwitches) if (k.enabled) await kit.setSwitch(k.name, false, 'test cleanup');
    if (now!.state !== IS.INTEGRITY_STATE_NORMAL) await kit.setState(IS.INTEGRITY_STATE_NORMAL, 'test cleanup');
  });
  return kit;
}
