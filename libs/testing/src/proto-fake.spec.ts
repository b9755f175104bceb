import { createServiceClient, errorInfoFromGrpc, errors } from '@exchange/platform';
import { identityV1, marketV1Catalog, marketV1Insights, registryV1, walletV1 } from '@exchange/proto';
import { Client, credentials, Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { CallLog, protoService, startProtoFake, type ProtoFake } from './proto-fake';

describe('startProtoFake', () => {
  let fake: ProtoFake;
  let wallet: ReturnType<typeof createServiceClient<typeof walletV1.WalletLedgerServiceService>>;
  beforeAll(async () => {
    fake = await startProtoFake(walletV1.WalletLedgerServiceService, {
      getBalance: async (req) => ({ agentId: req.agentId, balances: [{ currency: 'CREDIT', available: '1', held: '0', total: '1' }], asOf: new Date(0) }),
    });
    wallet = createServiceClient(walletV1.WalletLedgerServiceService, fake.address);
  });
  afterAll(async () => {
    wallet.close();
    await fake.stop();
  });

  it('should answer a method with its override and record the request and metadata', async () => {
    const res = await wallet.getBalance({ agentId: 'a:agent:x' }, { requestId: 'req_1', actor: 'operator:default', agentId: 'a:agent:x' });
    expect(res).toEqual({ agentId: 'a:agent:x', balances: [{ currency: 'CREDIT', available: '1', held: '0', total: '1' }], asOf: new Date(0) });
    const call = fake.lastCall<walletV1.GetBalanceRequest>('getBalance');
    expect(call.request).toEqual({ agentId: 'a:agent:x' });
    expect(call.ctx).toEqual({ requestId: 'req_1', traceId: 'req_1', actor: 'operator:default', agentId: 'a:agent:x' });
    expect(call.metadata.get('x-request-id')).toEqual(['req_1']);
  });

  it('should answer every other method with the default message of its response type', async () => {
    await expect(wallet.checkLedger({})).resolves.toEqual(walletV1.CheckLedgerResponse.fromPartial({}));
    await expect(wallet.faucet({ agentId: 'a:agent:x', amount: '1', currency: 'CREDIT', category: '', idempotencyKey: '' })).resolves.toEqual({ grant: undefined, idempotentReplayed: false });
    expect(fake.calls.map((c) => c.method).slice(-2)).toEqual(['checkLedger', 'faucet']);
  });

  it('should fail the next call of a method once with the error queued, code and details included', async () => {
    fake.failNext('getBalance', errors.notFound('agent', 'a:agent:none'));
    const err = await wallet.getBalance({ agentId: 'a:agent:none' }).catch((e: unknown) => e);
    expect(errorInfoFromGrpc(err)).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'agent_not_found' });
    expect(fake.lastCall('getBalance').request).toEqual({ agentId: 'a:agent:none' }); // recorded before failing
    await expect(wallet.getBalance({ agentId: 'a:agent:x' })).resolves.toMatchObject({ agentId: 'a:agent:x' });
  });

  it('should name the method when no call of it was recorded', () => {
    expect(() => fake.lastCall('refund')).toThrow('no refund call recorded');
  });

  it('should refuse an override that is not a method of the definition', async () => {
    await expect(startProtoFake(walletV1.WalletLedgerServiceService, { nope: async () => ({}) } as never)).rejects.toThrow('nope is not a method');
  });
});

describe('startProtoFake options', () => {
  it("should answer UNIMPLEMENTED for methods without an override under missing: 'unimplemented'", async () => {
    const fake = await startProtoFake(identityV1.IdentityServiceService, { getAgent: () => ({ agent: undefined }) }, { missing: 'unimplemented' });
    const client = createServiceClient(identityV1.IdentityServiceService, fake.address);
    try {
      await expect(client.getAgent({ agentId: 'a:agent:x' })).resolves.toEqual({ agent: undefined });
      const err = await client.freezeAgent({ agentId: 'a:agent:x', reason: 'r' }).catch((e: unknown) => e);
      expect(errorInfoFromGrpc(err)).toMatchObject({ grpcCode: status.UNIMPLEMENTED, code: 'unimplemented' });
    } finally {
      client.close();
      await fake.stop();
    }
  });

  it('should serve several services on one port, recording into one log', async () => {
    const fake = await startProtoFake(marketV1Catalog.MarketCatalogServiceService, {}, {
      also: [protoService(marketV1Insights.MarketInsightsServiceService, { getPriceIndex: (req) => marketV1Insights.GetPriceIndexResponse.fromPartial({ window: req.window }) })],
    });
    const catalog = createServiceClient(marketV1Catalog.MarketCatalogServiceService, fake.address);
    const insights = createServiceClient(marketV1Insights.MarketInsightsServiceService, fake.address);
    try {
      await expect(catalog.listFixtures(marketV1Catalog.ListFixturesRequest.fromPartial({}))).resolves.toMatchObject({ fixtures: [] });
      await expect(insights.getPriceIndex({ window: marketV1Insights.InsightWindow.INSIGHT_WINDOW_7D })).resolves.toMatchObject({ window: marketV1Insights.InsightWindow.INSIGHT_WINDOW_7D });
      expect(fake.calls.map((c) => c.method)).toEqual(['listFixtures', 'getPriceIndex']);
    } finally {
      catalog.close();
      insights.close();
      await fake.stop();
    }
  });

  it('should refuse two services that share a method name', async () => {
    await expect(startProtoFake(walletV1.WalletLedgerServiceService, {}, { also: [protoService(walletV1.WalletLedgerServiceService)] })).rejects.toThrow(
      'method getBalance is defined by two of its services',
    );
  });

  it('should answer a streaming method without an override UNIMPLEMENTED and serve a hand-written one that records through the log', async () => {
    const log = new CallLog();
    const fake = await startProtoFake(
      registryV1.RegistryServiceService,
      {
        uploadArtifact: (call, callback) => {
          let chunks = 0;
          call.on('data', (message: registryV1.UploadArtifactRequest) => {
            if (message.part?.$case === 'metadata') log.record('uploadArtifact', message.part.value, call.metadata);
            else chunks++;
          });
          call.on('end', () => callback(null, registryV1.UploadArtifactResponse.fromPartial({ created: chunks > 0 })));
        },
      },
      { log },
    );
    const def = registryV1.RegistryServiceService;
    const client = new Client(fake.address, credentials.createInsecure());
    try {
      const uploaded = await new Promise<registryV1.UploadArtifactResponse>((resolve, reject) => {
        const stream = client.makeClientStreamRequest(def.uploadArtifact.path, def.uploadArtifact.requestSerialize, def.uploadArtifact.responseDeserialize, new Metadata(), (err, res) => (err ? reject(err) : resolve(res!)));
        stream.write({ part: { $case: 'metadata', value: registryV1.ArtifactMetadata.fromPartial({ mediaType: 'text/plain' }) } });
        stream.write({ part: { $case: 'chunk', value: Buffer.from('hi') } });
        stream.end();
      });
      expect(uploaded.created).toBe(true);
      expect(fake.lastCall<registryV1.ArtifactMetadata>('uploadArtifact').request.mediaType).toBe('text/plain');

      const refused = await new Promise<ServiceError>((resolve) => {
        const stream = client.makeServerStreamRequest(def.downloadArtifact.path, def.downloadArtifact.requestSerialize, def.downloadArtifact.responseDeserialize, { artifactRef: 'x' });
        stream.on('error', resolve);
        stream.on('data', () => undefined);
      });
      expect(refused.code).toBe(status.UNIMPLEMENTED);
    } finally {
      client.close();
      await fake.stop();
    }
  });
});
