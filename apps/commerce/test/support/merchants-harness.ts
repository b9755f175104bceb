import { toBase64 } from '@exchange/crypto';
import { createServiceClient, errorInfoFromGrpc, type GrpcErrorInfo, type PromiseClient } from '@exchange/platform';
import { commerceV1 } from '@exchange/proto';
import { createTestDatabase, startFakeIdentity, testLogger, type FakeIdentity, type TestDatabase } from '@exchange/testing';
import { readCommerceConfig, startCommerce, type CommerceHandle } from '../../src/index';

// Commerce started in process on its own database, for the merchants, negotiate and webhooks
// areas: identity is the shared fake (those areas do not call it), wallet-ledger an address
// nothing listens on (they never pay). The clock is settable (Standard Webhooks windows, cache
// expiry). Merchants are the real sandbox merchant and local fixture servers, via MERCHANT_DIRECTORY.

export type CommerceClient = PromiseClient<typeof commerceV1.CommerceServiceService>;

export const EXCHANGE_SEED = new Uint8Array(32).fill(11);
export const EXCHANGE_PUBLIC_URL = 'https://exchange.test';

export interface MerchantsHarness {
  client: CommerceClient;
  commerce: CommerceHandle;
  clock: { now(): Date; set(d: Date): void; advance(ms: number): void };
  close(): Promise<void>;
}

export async function startMerchantsHarness(opts: { directory: string; env?: Record<string, string> }): Promise<MerchantsHarness> {
  const db: TestDatabase = await createTestDatabase('commerce_merchants');
  const identity: FakeIdentity = await startFakeIdentity([]);
  let now = Date.now();
  const clock = { now: () => new Date(now), set: (d: Date) => void (now = d.getTime()), advance: (ms: number) => void (now += ms) };
  const config = readCommerceConfig({
    DATABASE_URL: db.url,
    GRPC_PORT: '0',
    GRPC_HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    EXCHANGE_SIGNING_KEY: toBase64(EXCHANGE_SEED),
    IDENTITY_GRPC_URL: identity.address,
    WALLET_LEDGER_GRPC_URL: '127.0.0.1:9',
    MARKET_GRPC_URL: '127.0.0.1:1',
    WORKFLOWS_GRPC_URL: '127.0.0.1:1',
    EXCHANGE_PUBLIC_URL,
    MERCHANT_DIRECTORY: opts.directory,
    MERCHANT_TIMEOUT_MS: '1500',
    COMMERCE_RECOVERY_INTERVAL_MS: '0',
    ...opts.env,
  });
  const commerce = await startCommerce(config, { logger: testLogger, clock: clock.now });
  const client: CommerceClient = createServiceClient(commerceV1.CommerceServiceService, `127.0.0.1:${commerce.grpcPort}`, { defaultDeadlineMs: 20_000 });
  return {
    client,
    commerce,
    clock,
    close: async () => {
      await commerce.stop();
      await identity.close();
      await db.drop();
    },
  };
}

/** The error of a call that must fail (throws when it succeeds). */
export async function grpcFailure(call: Promise<unknown>): Promise<GrpcErrorInfo> {
  try {
    await call;
  } catch (err) {
    return errorInfoFromGrpc(err);
  }
  throw new Error('expected the call to fail');
}
