import { canonicalBytes, generateKeyPair, publicKeyFromPrivate, sha256Hex, sign, signCanonical, toBase64 } from '@exchange/crypto';
import type { EventBus } from '@exchange/events';
import type { Logger } from '@exchange/platform';
import { telemetryV1, workflowsV1 } from '@exchange/proto';
import { startProtoFake, testLogger, type ProtoFake } from '@exchange/testing';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { randomBytes } from 'node:crypto';
import { buildGateway, readGatewayConfig } from '../src/index';
import { startFakeCommerce } from './fake-commerce';
import { startFakeIdentity, type FakeIdentity } from './fake-identity';
import { startFakeMarket, type FakeMarket } from './fake-market';
import { startFakeRegistry, type FakeRegistry } from './fake-registry';
import { startFakeWalletLedger, type FakeWalletLedger } from './fake-wallet-ledger';

export const OPERATOR_TOKEN = 'test-operator-token-0123456789';
/** Seed 0x01..0x20 (also the worked example of skill.md). */
export const EXCHANGE_SEED_B64 = Buffer.from(Array.from({ length: 32 }, (_, i) => i + 1)).toString('base64');

export interface Harness {
  app: FastifyInstance;
  identity: FakeIdentity;
  wallet: FakeWalletLedger;
  market: FakeMarket;
  registry: FakeRegistry;
  /** Commerce (fake-commerce.ts) unless a spec passes its own fake. */
  commerce: ProtoFake;
  /** Workflows: answers from the proto definition unless a spec passes its own fake. */
  workflows: ProtoFake;
  /** Telemetry: answers from the proto definition unless a spec passes its own fake. */
  telemetry: ProtoFake;
  close(): Promise<void>;
}

export async function startHarness(
  opts: {
    env?: Record<string, string>;
    now?: () => number;
    identity?: FakeIdentity;
    wallet?: FakeWalletLedger;
    market?: FakeMarket;
    registry?: FakeRegistry;
    commerce?: ProtoFake;
    workflows?: ProtoFake;
    telemetry?: ProtoFake;
    healthCheckDeadlineMs?: number;
    /** Identity's agent events for the agent cache (agent-key-cache.spec.ts). */
    events?: EventBus;
    /** The gateway's logger (default: silent testLogger); specs of what is logged pass their own. */
    logger?: Logger;
  } = {},
): Promise<Harness> {
  const identity = opts.identity ?? (await startFakeIdentity());
  const wallet = opts.wallet ?? (await startFakeWalletLedger());
  const market = opts.market ?? (await startFakeMarket());
  const registry = opts.registry ?? (await startFakeRegistry());
  const commerce = opts.commerce ?? (await startFakeCommerce());
  const workflows = opts.workflows ?? (await startProtoFake(workflowsV1.WorkflowsServiceService, {}));
  const telemetry = opts.telemetry ?? (await startProtoFake(telemetryV1.TelemetryServiceService, {}));
  const config = readGatewayConfig({
    IDENTITY_GRPC_URL: identity.address,
    WALLET_LEDGER_GRPC_URL: wallet.address,
    MARKET_GRPC_URL: market.address,
    REGISTRY_GRPC_URL: registry.address,
    COMMERCE_GRPC_URL: commerce.address,
    WORKFLOWS_GRPC_URL: workflows.address,
    TELEMETRY_GRPC_URL: telemetry.address,
    OPERATOR_TOKEN,
    EXCHANGE_SIGNING_KEY: EXCHANGE_SEED_B64,
    ...opts.env,
  });
  const app = await buildGateway({ config, logger: opts.logger ?? testLogger, now: opts.now, healthCheckDeadlineMs: opts.healthCheckDeadlineMs, events: opts.events });
  await app.ready();
  return {
    app,
    identity,
    wallet,
    market,
    registry,
    commerce,
    workflows,
    telemetry,
    close: async () => {
      await app.close();
      if (!opts.identity) await identity.stop();
      if (!opts.wallet) await wallet.stop();
      if (!opts.market) await market.stop();
      if (!opts.registry) await registry.stop();
      if (!opts.commerce) await commerce.stop();
      if (!opts.workflows) await workflows.stop();
      if (!opts.telemetry) await telemetry.stop();
    },
  };
}

export const operator = (extra: Record<string, string> = {}) => ({ authorization: `Bearer ${OPERATOR_TOKEN}`, ...extra });

let counter = 0;
export function uniqueAgentId(name: string): string {
  return `gw-${randomBytes(3).toString('hex')}${counter++}:agent:${name}`;
}

/** An agent with its own ed25519 key, able to build registration bodies and signed headers. */
export class TestAgent {
  readonly privateKey: Uint8Array;
  readonly publicKey: string;

  constructor(readonly agentId: string, privateKey?: Uint8Array) {
    this.privateKey = privateKey ?? generateKeyPair().privateKey;
    this.publicKey = toBase64(publicKeyFromPrivate(this.privateKey));
  }

  registrationBody(nonce = randomBytes(8).toString('hex'), extra: Record<string, unknown> = {}) {
    return {
      agent_id: this.agentId,
      primary_pubkey: this.publicKey,
      pubkey_set: [] as string[],
      identity_level: 'SANDBOX_UNVERIFIED',
      proof_nonce: nonce,
      proof_signature: signCanonical({ agent_id: this.agentId, primary_pubkey: this.publicKey, proof_nonce: nonce }, this.privateKey),
      ...extra,
    };
  }

  /** The four X-Agent-* headers; a fresh nonce per call unless one is given (replays are refused). */
  signedHeaders(method: string, path: string, body: string | Uint8Array = '', timestamp = Math.floor(Date.now() / 1000), nonce = randomBytes(16).toString('base64url')): Record<string, string> {
    const payload = { agent_id: this.agentId, method, path, timestamp: String(timestamp), nonce, body_sha256: sha256Hex(body) };
    return {
      'x-agent-id': this.agentId,
      'x-agent-timestamp': String(timestamp),
      'x-agent-nonce': nonce,
      'x-agent-signature': toBase64(sign(canonicalBytes(payload), this.privateKey)),
    };
  }
}

/** An agent-signed request carrying exactly the bytes it signed (a JSON body when one is given). */
export function signedRequest(
  app: FastifyInstance,
  agent: TestAgent,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  body?: unknown,
  extra: Record<string, string> = {},
) {
  const text = body === undefined ? '' : JSON.stringify(body);
  return app.inject({
    method,
    url,
    headers: { ...agent.signedHeaders(method, url, text), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...extra },
    ...(body === undefined ? {} : { payload: text }),
  });
}

/**
 * The hooks of a spec file with one harness of its own: started, an agent registered per name
 * (in order), both handed to `ready` before any test; closed after the last.
 */
export function useHarnessWithAgents(names: readonly string[], ready: (h: Harness, agents: TestAgent[]) => void): void {
  let started: Harness | undefined;
  beforeAll(async () => {
    started = await startHarness();
    const agents = names.map((name) => new TestAgent(uniqueAgentId(name)));
    for (const agent of agents) await registerAgent(started.app, agent);
    ready(started, agents);
  });
  afterAll(async () => {
    await started?.close();
  });
}

export async function registerAgent(app: FastifyInstance, agent: TestAgent, extra: Record<string, unknown> = {}) {
  const res = await app.inject({ method: 'POST', url: '/v1/agents', headers: operator(), payload: agent.registrationBody(undefined, extra) });
  if (res.statusCode !== 201) throw new Error(`registration failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** Asserts a problem+json response and returns its body. */
export function expectProblem(res: LightMyRequestResponse, status: number, code: string) {
  expect({ status: res.statusCode, type: res.headers['content-type'] }).toEqual({
    status,
    type: 'application/problem+json; charset=utf-8',
  });
  const body = res.json();
  expect(body).toMatchObject({
    type: `https://agent-exchange.dev/errors/${code}`,
    status,
    code,
    request_id: res.headers['x-request-id'],
  });
  expect(typeof body.title).toBe('string');
  expect(typeof body.detail).toBe('string');
  return body;
}
