// Artifacts (`client.artifacts`): upload (JSON or multipart, signed either way), policy-gated
// download, envelope, signed acks, delivery receipts, takedown and reinstate (operator).
import { signCanonical } from '@exchange/crypto';
import { randomUUID } from 'node:crypto';
import type { Page, PageParams } from './pagination';
import { signerOf } from './registry-base';
import type { Ack, Artifact, ArtifactAccess, ArtifactDownload, ArtifactEnvelopeView, DeliveryReceipt } from './registry-types';
import { pathSegment, type AgentCredentials, type Transport } from './transport';
import type { api } from './wire';

/** Base64 ed25519 over canonicalize({artifact_ref, agent_id}): the signature of an artifact ack. */
export function signArtifactAck(artifactRef: string, agentId: string, privateKey: Uint8Array): string {
  return signCanonical({ artifact_ref: artifactRef, agent_id: agentId }, privateKey);
}

type ByteSource = Uint8Array | AsyncIterable<Uint8Array | string>;

async function collect(source: ByteSource): Promise<Buffer> {
  if (source instanceof Uint8Array) return Buffer.from(source.buffer, source.byteOffset, source.byteLength);
  const chunks: Buffer[] = [];
  for await (const chunk of source) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  return Buffer.concat(chunks);
}

export interface UploadArtifactInput {
  /** The bytes: a Buffer/Uint8Array, or a stream (collected in memory first: ≤ 25 MiB). */
  content: ByteSource;
  mediaType: string;
  contractId?: string;
  /** Default `parties`. */
  access?: ArtifactAccess;
  parties?: string[];
  envelope?: { algorithm: string; recipientKeyIds: string[]; nonce?: string };
  /**
   * `json` (default): content_base64 in a JSON body. `multipart`: multipart/form-data, the fields
   * first (`parties` repeated, `envelope` as JSON text), then one `file` part — a third smaller.
   */
  encoding?: 'json' | 'multipart';
  /** File name of the multipart part (default `artifact`). */
  filename?: string;
}

export interface SignedAckInput {
  /** Default: the signer's agent id. */
  agentId?: string;
  /** Signs {artifact_ref, agent_id}; default: the client's agent credentials. */
  signer?: AgentCredentials;
  /** A ready signature instead (with `agentId`, default the acting agent). */
  signature?: string;
}

function multipartBody(fields: Array<[string, string]>, file: { name: string; filename: string; contentType: string; bytes: Buffer }): { bytes: Buffer; contentType: string } {
  const boundary = `----exchange-sdk-${randomUUID()}`;
  const parts: Buffer[] = [];
  const quote = (v: string) => v.replace(/[\r\n"]/g, (c) => encodeURIComponent(c));
  for (const [name, value] of fields) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${value}\r\n`));
  }
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${quote(file.name)}"; filename="${quote(file.filename)}"\r\nContent-Type: ${file.contentType}\r\n\r\n`));
  parts.push(file.bytes, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { bytes: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

export class ArtifactsApi {
  constructor(private readonly transport: Transport) {}

  /**
   * POST /v1/artifacts (≤ 25 MiB; larger → 413 payload_too_large): 201 with this upload's metadata —
   * also when another agent uploaded the same bytes (access is per upload) — or 200 with your earlier
   * upload when you sent the same bytes for the same contract (or none) before.
   */
  async upload(input: UploadArtifactInput): Promise<Artifact> {
    const bytes = await collect(input.content);
    const envelope = input.envelope && {
      algorithm: input.envelope.algorithm,
      recipient_key_ids: input.envelope.recipientKeyIds,
      ...(input.envelope.nonce !== undefined ? { nonce: input.envelope.nonce } : {}),
    };
    if ((input.encoding ?? 'json') === 'json') {
      return this.transport.request<Artifact>({
        method: 'POST',
        path: '/v1/artifacts',
        body: {
          content_base64: bytes.toString('base64'),
          media_type: input.mediaType,
          ...(input.contractId !== undefined ? { contract_id: input.contractId } : {}),
          ...(input.access !== undefined ? { access: input.access } : {}),
          ...(input.parties !== undefined ? { parties: input.parties } : {}),
          ...(envelope ? { envelope } : {}),
        } satisfies api.UploadArtifactRequest,
      });
    }
    const fields: Array<[string, string]> = [['media_type', input.mediaType]];
    if (input.contractId !== undefined) fields.push(['contract_id', input.contractId]);
    if (input.access !== undefined) fields.push(['access', input.access]);
    for (const party of input.parties ?? []) fields.push(['parties', party]);
    if (envelope) fields.push(['envelope', JSON.stringify(envelope)]);
    const rawBody = multipartBody(fields, { name: 'file', filename: input.filename ?? 'artifact', contentType: input.mediaType, bytes });
    return this.transport.request<Artifact>({ method: 'POST', path: '/v1/artifacts', rawBody });
  }

  /** GET /v1/artifacts/{ref}: the bytes, through your own upload, else one you are a party of, else a public one (451 artifact_removed, 403 access_denied). A party's download writes a delivery receipt. */
  async download(artifactRef: string): Promise<ArtifactDownload> {
    const res = await this.transport.sendBytes({ method: 'GET', path: `/v1/artifacts/${pathSegment(artifactRef)}` });
    const etag = res.headers.get('etag');
    return {
      bytes: res.body,
      artifactRef: res.headers.get('x-artifact-ref') ?? artifactRef,
      mediaType: res.headers.get('content-type') ?? 'application/octet-stream',
      sizeBytes: res.body.length,
      etag: etag === null ? null : etag.replace(/^W\//, '').replace(/^"|"$/g, ''),
    };
  }

  /** GET /v1/artifacts/{ref}/envelope (404 envelope_not_found when none). */
  envelope(artifactRef: string): Promise<ArtifactEnvelopeView> {
    return this.transport.request<ArtifactEnvelopeView>({ method: 'GET', path: `/v1/artifacts/${pathSegment(artifactRef)}/envelope` });
  }

  /** POST /v1/artifacts/{ref}/acks, signed over canonicalize({artifact_ref, agent_id}): 201, or 200 when already acked. */
  async ack(artifactRef: string, input: SignedAckInput = {}): Promise<Ack> {
    let signature = input.signature;
    let agentId = input.agentId;
    if (signature === undefined) {
      const signer = signerOf(this.transport, input.signer, 'artifacts.ack');
      agentId ??= signer.agentId;
      signature = signArtifactAck(artifactRef, agentId, signer.privateKey);
    }
    return this.transport.request<Ack>({
      method: 'POST',
      path: `/v1/artifacts/${pathSegment(artifactRef)}/acks`,
      body: { ...(agentId !== undefined ? { agent_id: agentId } : {}), signature } satisfies api.AckArtifactRequest,
    });
  }

  /** GET /v1/artifacts/{ref}/receipts: delivery receipts of the uploads you uploaded or are a party of (the operator: all). */
  receipts(artifactRef: string, params: PageParams = {}): Promise<Page<DeliveryReceipt>> {
    return this.transport.request<Page<DeliveryReceipt>>({
      method: 'GET',
      path: `/v1/artifacts/${pathSegment(artifactRef)}/receipts`,
      query: { limit: params.limit, cursor: params.cursor },
    });
  }

  /** Operator: active → removed (409 invalid_state when already removed). */
  takedown(artifactRef: string, reason: string): Promise<Artifact> {
    return this.transport.request<Artifact>({ method: 'POST', path: `/v1/artifacts/${pathSegment(artifactRef)}/takedown`, body: { reason } satisfies api.TakedownArtifactRequest });
  }

  /** Operator: removed → active (409 invalid_state when active). */
  reinstate(artifactRef: string, reason: string): Promise<Artifact> {
    return this.transport.request<Artifact>({ method: 'POST', path: `/v1/artifacts/${pathSegment(artifactRef)}/reinstate`, body: { reason } satisfies api.ReinstateArtifactRequest });
  }
}
