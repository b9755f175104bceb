// Metering (DESIGN §4 "Metering, billing, gateway proxy"): signed meter events — signed here with
// the agent's key, or sent with a ready signature — and the operator's epoch pricing tables.
import { canonicalize, signCanonical } from '@exchange/crypto';
import { iso, signerOf } from './registry-base';
import { pathSegment, type AgentCredentials, type Transport } from './transport';
import type { api } from './wire';

export type MeterEvent = api.MeterEvent;
export type MeterEventPayload = api.IngestMeterEventRequest['payload'];
export type MeterEpochTable = api.MeterEpochTable;

/** What a meter event's signer signs: the payload, with `occurred_at` as an RFC 3339 string. */
export interface MeterEventPayloadInput extends Omit<MeterEventPayload, 'occurred_at'> {
  occurred_at: Date | string;
}

/** A payload and its signature: base64 ed25519 over the canonical JSON (legacy v1) of the payload. */
export interface SignedMeterEvent {
  payload: MeterEventPayload;
  signature: string;
}

/** The payload exactly as the exchange reads it (dates as RFC 3339 ms Z; an absent `ref` left out). */
export function meterEventPayload(input: MeterEventPayloadInput): MeterEventPayload {
  const { ref, occurred_at, ...rest } = input;
  return { ...rest, occurred_at: iso(occurred_at)!, ...(ref !== undefined ? { ref } : {}) };
}

/** The canonical JSON bytes a meter event's signature covers. */
export function meterEventSigningText(payload: MeterEventPayloadInput): string {
  return canonicalize(meterEventPayload(payload));
}

/** Signs a meter event payload with a 32-byte ed25519 seed of the reporting agent. */
export function signMeterEvent(payload: MeterEventPayloadInput, privateKey: Uint8Array): SignedMeterEvent {
  const p = meterEventPayload(payload);
  return { payload: p, signature: signCanonical(p, privateKey) };
}

export interface IngestMeterEventInput {
  payload: MeterEventPayloadInput;
  /** A ready signature (with `signerAgentId`); otherwise the payload is signed here. */
  signature?: string;
  /** Default: the signer's agent id. */
  signerAgentId?: string;
  /** Signs the payload; default the client's agent credentials. */
  signer?: AgentCredentials;
}

export interface CreateEpochTableInput {
  epoch: string;
  effectiveFrom: Date | string;
  effectiveTo: Date | string;
  /** Unit price per meter, decimal strings (≤ 6 fraction digits). */
  prices: Record<string, string>;
  /** Default CREDIT. */
  currency?: string;
}

export class MeteringApi {
  constructor(private readonly transport: Transport) {}

  /** POST /v1/meter_events/ingest: `created` false when the same event was ingested before (200, counted once). */
  async ingest(input: IngestMeterEventInput): Promise<{ event: MeterEvent; created: boolean }> {
    let signature = input.signature;
    let signerAgentId = input.signerAgentId;
    let payload = meterEventPayload(input.payload);
    if (signature === undefined) {
      const signer = signerOf(this.transport, input.signer, 'metering.ingest');
      ({ payload, signature } = signMeterEvent(payload, signer.privateKey));
      signerAgentId ??= signer.agentId;
    }
    if (signerAgentId === undefined) throw new Error('metering.ingest: a ready signature needs `signerAgentId`');
    const res = await this.transport.send<MeterEvent>({
      method: 'POST',
      path: '/v1/meter_events/ingest',
      body: { signer_agent_id: signerAgentId, payload, signature } satisfies api.IngestMeterEventRequest,
    });
    return { event: res.body, created: res.status === 201 };
  }

  /** The operator reads any event; an agent only events it signed or is billed for (else 404). */
  get(objectId: string): Promise<MeterEvent> {
    return this.transport.request({ method: 'GET', path: `/v1/meter_events/${pathSegment(objectId)}` });
  }

  /** Operator: `created` false when the identical table existed (200). */
  async createEpochTable(input: CreateEpochTableInput): Promise<{ table: MeterEpochTable; created: boolean }> {
    const body = {
      epoch: input.epoch,
      effective_from: iso(input.effectiveFrom)!,
      effective_to: iso(input.effectiveTo)!,
      prices: input.prices,
      ...(input.currency !== undefined ? { currency: input.currency } : {}),
    } satisfies api.CreateMeterEpochTableRequest;
    const res = await this.transport.send<MeterEpochTable>({ method: 'POST', path: '/v1/meter_epoch_tables', body });
    return { table: res.body, created: res.status === 201 };
  }

  /** Operator. */
  getEpochTable(objectId: string): Promise<MeterEpochTable> {
    return this.transport.request({ method: 'GET', path: `/v1/meter_epoch_tables/${pathSegment(objectId)}` });
  }
}
