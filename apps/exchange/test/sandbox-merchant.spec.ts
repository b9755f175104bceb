// `npm start` in sandbox mode runs the built-in UCP business (issue 15) beside the exchange and
// stops it with the exchange.
import { dropDatabasesWithPrefix } from '@exchange/testing';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startExchange, type RunningExchange } from '../src/exchange';

describe('all-in-one launcher: sandbox merchant', () => {
  const dbPrefix = `launch_${randomBytes(4).toString('hex')}_`;
  let dataDir: string;
  let exchange: RunningExchange | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'exchange-launch-'));
    // Embedded PostgreSQL (no DATABASE_URL) runs as `postgres`, which must reach the data dir.
    await chmod(dataDir, 0o755);
    exchange = await startExchange({
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
      ...(process.env.NATS_URL ? { NATS_URL: process.env.NATS_URL } : {}),
      PORT: '0',
      EXCHANGE_DATA_DIR: dataDir,
      EXCHANGE_DB_PREFIX: dbPrefix,
      OPERATOR_TOKEN: `launch-${randomBytes(16).toString('hex')}`,
      LOG_LEVEL: 'silent',
    });
  });

  afterAll(async () => {
    await exchange?.stop();
    await rm(dataDir, { recursive: true, force: true });
    if (process.env.DATABASE_URL) await dropDatabasesWithPrefix(process.env.DATABASE_URL, dbPrefix);
  });

  it('should serve the business profile at /.well-known/ucp, with its own URL as the REST endpoint', async () => {
    const merchant = exchange!.sandboxMerchant!;
    expect(merchant.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(merchant.profileUrl).toBe(`${merchant.url}/.well-known/ucp`);
    const res = await fetch(merchant.profileUrl);
    expect(res.status).toBe(200);
    const profile = (await res.json()) as { ucp: { services: Record<string, Array<{ transport: string; endpoint: string }>> }; signing_keys: Array<{ kty: string; crv: string }> };
    expect(profile.ucp.services['dev.ucp.shopping']).toEqual([expect.objectContaining({ transport: 'rest', endpoint: merchant.url })]);
    expect(profile.signing_keys).toEqual([expect.objectContaining({ kty: 'EC', crv: 'P-256' })]);
  });

  it('should name it for commerce in MERCHANT_DIRECTORY as sandbox-merchant.local', () => {
    const merchant = exchange!.sandboxMerchant!;
    expect(JSON.parse(merchant.directory)).toEqual({ 'sandbox-merchant.local': merchant.url });
  });

  it("should post order webhooks to the gateway's receiver (its port is chosen before the gateway starts)", () => {
    expect(exchange!.sandboxMerchant!.webhookUrl).toBe(`${exchange!.url}/v1/commerce/ucp/webhooks/orders`);
  });

  it('should stop the merchant with the exchange', async () => {
    const { url } = exchange!.sandboxMerchant!;
    await exchange!.stop();
    exchange = undefined;
    await expect(fetch(`${url}/health`)).rejects.toThrow();
  });
});
