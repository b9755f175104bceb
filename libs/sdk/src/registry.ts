// The registry areas of the REST API: signed objects, artifacts (upload, policy-gated download,
// envelope, acks, delivery receipts, takedown), attestations, casefiles (export and server-side
// verify; `verifyCasefileArchive` verifies offline) and party aliases / identity reveals.
// Inputs are camelCase, answers the gateway's snake_case JSON.
import type { Docket } from '@exchange/casefile';
import { canonicalize, sha256Hex, signCanonical, toBase64 } from '@exchange/crypto';
import { randomUUID } from 'node:crypto';
import { paginate, type Page, type PageParams } from './pagination';
import type {
  Ack,
  Artifact,
  ArtifactAccess,
  ArtifactDownload,
  ArtifactEnvelopeView,
  AttestationPayload,
  CasefileExport,
  CasefileVerdict,
  DeliveryReceipt,
  IdentityRevealPayload,
  ObjectVisibility,
  PartyAliasToken,
  PartyRole,
  RegistryObject,
} from './registry-types';
import { pathSegment, type AgentCredentials, type Transport } from './transport';

/** `sha256:` + hex sha256 of canonicalize({type, payload, signer_agent_id}): the id the registry gives an object. */
export function objectIdOf(type: string, payload: unknown, signerAgentId: string): string {
  return `sha256:${sha256Hex(canonicalize({ type, payload, signer_agent_id: signerAgentId }))}`;
}

/** Base64 ed25519 over canonicalize(payload): the signature of a registry object. */
export function signObjectPayload(payload: unknown, privateKey: Uint8Array): string {
  return signCanonical(payload, privateKey);
}

/** Base64 ed25519 over canonicalize({artifact_ref, agent_id}): the signature of an artifact ack. */
export function signArtifactAck(artifactRef: string, agentId: string, privateKey: Uint8Array): string {
  return signCanonical({ artifact_ref: artifactRef, agent_id: agentId }, privateKey);
}

/** `archive_base64` of an export as bytes (a .tar.gz for `verifyCasefileArchive` or to save). */
export function casefileArchiveBytes(exported: CasefileExport): Buffer {
  return Buffer.from(exported.archive_base64, 'base64');
}

function signerOf(transport: Transport, signer: AgentCredentials | undefined, what: string): AgentCredentials {
  const credentials = signer ?? transport.options.agent;
  if (!credentials) throw new Error(`${what}: pass \`signer\` (agent id and private key) or \`signature\`, or use a client with agent credentials`);
  return credentials;
}

const iso = (value: Date | string | undefined): string | undefined => (value instanceof Date ? value.toISOString() : value);

// ---------------------------------------------------------------------------------------------
// Objects

export interface StoreObjectInput<P = unknown> {
  /** `^[a-z][a-z0-9_.-]{0,63}$`; `party_alias_token` and `identity_reveal` are reserved. */
  type: string;
  /** Any JSON value (≤ 1 MiB body). */
  payload: P;
  /** Default `public`. */
  visibility?: ObjectVisibility;
  parties?: string[];
  tags?: string[];
  /** Signs the payload; default: the client's agent credentials. */
  signer?: AgentCredentials;
  /** A ready signature instead (with `signerAgentId`, default the acting agent). */
  signature?: string;
  signerAgentId?: string;
}

export interface ListObjectsParams extends PageParams {
  type?: string;
  tag?: string;
}

export class ObjectsApi {
  constructor(private readonly transport: Transport) {}

  /** POST /v1/objects: 201 created, or 200 with the same object when it was stored before. */
  async store<P = unknown>(input: StoreObjectInput<P>): Promise<RegistryObject<P>> {
    let signature = input.signature;
    let signerAgentId = input.signerAgentId;
    if (signature === undefined) {
      const signer = signerOf(this.transport, input.signer, 'objects.store');
      signature = signObjectPayload(input.payload, signer.privateKey);
      signerAgentId ??= signer.agentId;
    }
    return this.transport.request<RegistryObject<P>>({
      method: 'POST',
      path: '/v1/objects',
      body: {
        type: input.type,
        payload: input.payload,
        signature,
        ...(signerAgentId !== undefined ? { signer_agent_id: signerAgentId } : {}),
        ...(input.visibility !== undefined ? { visibility: input.visibility } : {}),
        ...(input.parties !== undefined ? { parties: input.parties } : {}),
        ...(input.tags !== undefined ? { tags: input.tags } : {}),
      },
    });
  }

  get<P = unknown>(objectId: string): Promise<RegistryObject<P>> {
    return this.transport.request<RegistryObject<P>>({ method: 'GET', path: `/v1/objects/${pathSegment(objectId)}` });
  }

  /** Only the objects the caller may see. */
  list(params: ListObjectsParams = {}): Promise<Page<RegistryObject>> {
    return this.transport.request<Page<RegistryObject>>({
      method: 'GET',
      path: '/v1/objects',
      query: { type: params.type, tag: params.tag, limit: params.limit, cursor: params.cursor },
    });
  }

  iterate(params: Omit<ListObjectsParams, 'cursor'> = {}): AsyncGenerator<RegistryObject, void, undefined> {
    return paginate((cursor) => this.list({ ...params, cursor }));
  }
}

// ---------------------------------------------------------------------------------------------
// Artifacts

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
        },
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
      body: { ...(agentId !== undefined ? { agent_id: agentId } : {}), signature },
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
    return this.transport.request<Artifact>({ method: 'POST', path: `/v1/artifacts/${pathSegment(artifactRef)}/takedown`, body: { reason } });
  }

  /** Operator: removed → active (409 invalid_state when active). */
  reinstate(artifactRef: string, reason: string): Promise<Artifact> {
    return this.transport.request<Artifact>({ method: 'POST', path: `/v1/artifacts/${pathSegment(artifactRef)}/reinstate`, body: { reason } });
  }
}

// ---------------------------------------------------------------------------------------------
// Attestations, receipts export, casefiles

export interface AttestationFilter {
  subjectRef?: string;
  signerAgentId?: string;
  from?: Date | string;
  to?: Date | string;
}

export interface QueryAttestationsParams extends AttestationFilter, PageParams {}

function attestationBody(filter: AttestationFilter): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (filter.subjectRef !== undefined) body['subject_ref'] = filter.subjectRef;
  if (filter.signerAgentId !== undefined) body['signer_agent_id'] = filter.signerAgentId;
  if (filter.from !== undefined) body['from'] = iso(filter.from);
  if (filter.to !== undefined) body['to'] = iso(filter.to);
  return body;
}

export class AttestationsApi {
  constructor(private readonly transport: Transport) {}

  /** POST /v1/attestations/query → a page of attestation objects. */
  query(params: QueryAttestationsParams = {}): Promise<Page<RegistryObject<AttestationPayload>>> {
    const body = attestationBody(params);
    if (params.limit !== undefined) body['limit'] = params.limit;
    if (params.cursor !== undefined) body['cursor'] = params.cursor;
    return this.transport.request<Page<RegistryObject<AttestationPayload>>>({ method: 'POST', path: '/v1/attestations/query', body });
  }

  iterate(params: Omit<QueryAttestationsParams, 'cursor'> = {}): AsyncGenerator<RegistryObject<AttestationPayload>, void, undefined> {
    return paginate((cursor) => this.query({ ...params, cursor }));
  }

  /** POST /v1/attestations/export → signed docket (attestation entries) and its archive. */
  export(filter: AttestationFilter = {}): Promise<CasefileExport> {
    return this.transport.request<CasefileExport>({ method: 'POST', path: '/v1/attestations/export', body: attestationBody(filter) });
  }
}

export interface CasefileSubjectInput {
  contractId?: string;
  objectIds?: string[];
  artifactRefs?: string[];
}

export interface ExportCasefileInput {
  /** At least one of contractId, objectIds, artifactRefs. */
  subject: CasefileSubjectInput;
  /** Put artifact bytes in the archive (default false). */
  includePayloads?: boolean;
}

export interface ServerVerifyOptions {
  /** Base64 exchange public key to verify against; default: that exchange's own key. */
  exchangePublicKey?: string;
}

export class CasefilesApi {
  constructor(private readonly transport: Transport) {}

  /** POST /v1/casefiles/export (only the contract's parties or the operator for a contract). */
  export(input: ExportCasefileInput): Promise<CasefileExport> {
    const subject: Record<string, unknown> = {};
    if (input.subject.contractId !== undefined) subject['contract_id'] = input.subject.contractId;
    if (input.subject.objectIds !== undefined) subject['object_ids'] = input.subject.objectIds;
    if (input.subject.artifactRefs !== undefined) subject['artifact_refs'] = input.subject.artifactRefs;
    return this.transport.request<CasefileExport>({
      method: 'POST',
      path: '/v1/casefiles/export',
      body: { subject, ...(input.includePayloads !== undefined ? { include_payloads: input.includePayloads } : {}) },
    });
  }

  /** POST /v1/casefiles/verify {docket}: the exchange's verdict (verify offline with `verifyCasefileArchive` to trust nobody). */
  verify(docket: Docket | Record<string, unknown>, options: ServerVerifyOptions = {}): Promise<CasefileVerdict> {
    return this.transport.request<CasefileVerdict>({
      method: 'POST',
      path: '/v1/casefiles/verify',
      body: { docket, ...(options.exchangePublicKey !== undefined ? { exchange_public_key: options.exchangePublicKey } : {}) },
    });
  }

  /** POST /v1/casefiles/verify {archive_base64}; an unreadable archive → 400 casefile_unreadable. */
  verifyArchive(archive: Uint8Array, options: ServerVerifyOptions = {}): Promise<CasefileVerdict> {
    return this.transport.request<CasefileVerdict>({
      method: 'POST',
      path: '/v1/casefiles/verify',
      body: { archive_base64: toBase64(archive), ...(options.exchangePublicKey !== undefined ? { exchange_public_key: options.exchangePublicKey } : {}) },
    });
  }
}

export interface ExportReceiptsInput {
  receiptIds?: string[];
  contractId?: string;
}

/** POST /v1/receipts/export (used by ReceiptsApi.export). */
export function exportReceipts(transport: Transport, input: ExportReceiptsInput): Promise<CasefileExport> {
  return transport.request<CasefileExport>({
    method: 'POST',
    path: '/v1/receipts/export',
    body: {
      ...(input.receiptIds !== undefined ? { receipt_ids: input.receiptIds } : {}),
      ...(input.contractId !== undefined ? { contract_id: input.contractId } : {}),
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Party aliases and identity reveals

export interface MintAliasInput {
  contractId: string;
  role: PartyRole;
}

export class AliasesApi {
  constructor(private readonly transport: Transport) {}

  /** POST /v1/party_alias_tokens/mint: the role's agent or the operator; 201, or 200 when minted before. */
  mint(input: MintAliasInput): Promise<PartyAliasToken> {
    return this.transport.request<PartyAliasToken>({ method: 'POST', path: '/v1/party_alias_tokens/mint', body: { contract_id: input.contractId, role: input.role } });
  }

  /** GET /v1/party_alias_tokens/{object_id}: the token object (readable by any authenticated caller; none without credentials). */
  get(objectId: string): Promise<RegistryObject<Record<string, unknown>>> {
    return this.transport.request<RegistryObject<Record<string, unknown>>>({ method: 'GET', path: `/v1/party_alias_tokens/${pathSegment(objectId)}` });
  }
}

export interface MintIdentityRevealInput {
  contractId: string;
  alias: string;
  /** Agent id the identity is revealed to. */
  revealTo: string;
}

export class IdentityRevealsApi {
  constructor(private readonly transport: Transport) {}

  /** POST /v1/identity_reveals/mint: only the aliased agent or the operator; 201, or 200 when minted before. */
  mint(input: MintIdentityRevealInput): Promise<RegistryObject<IdentityRevealPayload>> {
    return this.transport.request<RegistryObject<IdentityRevealPayload>>({
      method: 'POST',
      path: '/v1/identity_reveals/mint',
      body: { contract_id: input.contractId, alias: input.alias, reveal_to: input.revealTo },
    });
  }

  /** GET /v1/identity_reveals/{object_id}: only the operator and `reveal_to`. */
  get(objectId: string): Promise<RegistryObject<IdentityRevealPayload>> {
    return this.transport.request<RegistryObject<IdentityRevealPayload>>({ method: 'GET', path: `/v1/identity_reveals/${pathSegment(objectId)}` });
  }
}

