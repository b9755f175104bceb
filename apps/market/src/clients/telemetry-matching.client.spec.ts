import { status } from '@grpc/grpc-js';
import { createServiceClient, DomainError, type Logger } from '@exchange/platform';
import { telemetryV1 } from '@exchange/proto';
import { startProtoFake, type ProtoFake } from '@exchange/testing';
import { TelemetryMatchingSignals, type TelemetryClient } from './telemetry-matching.client';

// The hook over a real gRPC channel to a fake TelemetryService: boosts by candidate, and on any
// failure a warn line (the contract or seller, the error code) and no boosts.

describe('TelemetryMatchingSignals', () => {
  let fake: ProtoFake;
  let client: TelemetryClient;
  const warn = jest.fn();
  const logger = { warn } as unknown as Logger;
  let signals: TelemetryMatchingSignals;

  beforeAll(async () => {
    fake = await startProtoFake(telemetryV1.TelemetryServiceService, {
      getMatchingBoosts: (req) => ({ boosts: [...req.sellerIds, ...req.contractIds].map((candidateId, i) => ({ candidateId, boost: i / 2 })) }),
    });
    client = createServiceClient(telemetryV1.TelemetryServiceService, fake.address);
    signals = new TelemetryMatchingSignals(client, logger);
  });
  afterAll(async () => {
    client?.close();
    await fake?.stop();
  });
  beforeEach(() => warn.mockClear());

  it('answers the boosts telemetry gives, by candidate id', async () => {
    expect(await signals.forSellers('ctr_1', ['s1', 's2'])).toEqual(new Map([['s1', 0], ['s2', 0.5]]));
    expect(await signals.forContracts('s1', ['ctr_1', 'ctr_2'])).toEqual(new Map([['ctr_1', 0], ['ctr_2', 0.5]]));
    expect(fake.lastCall<telemetryV1.GetMatchingBoostsRequest>('getMatchingBoosts').request).toMatchObject({ sellerId: 's1', contractIds: ['ctr_1', 'ctr_2'] });
  });

  it('asks nothing for no candidates', async () => {
    const before = fake.log.count('getMatchingBoosts');
    expect(await signals.forSellers('ctr_1', [])).toEqual(new Map());
    expect(fake.log.count('getMatchingBoosts')).toBe(before);
  });

  it('an error: no boosts and one warn line naming the subject and the code', async () => {
    fake.failNext('getMatchingBoosts', new DomainError(status.INTERNAL, 'internal', 'boom'));
    expect(await signals.forSellers('ctr_9', ['s1'])).toEqual(new Map());
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toMatchObject({ contract_id: 'ctr_9', code: 'internal' });
  });
});
