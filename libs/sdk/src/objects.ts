// Signed registry objects (`client.objects`): stored with a signature made here, read, listed.
import { canonicalize, sha256Hex, signCanonical } from '@exchange/crypto';
import { paginate, type Page, type PageParams } from './pagination';
import { signerOf } from './registry-base';
import type { ObjectVisibility, RegistryObject } from './registry-types';
import { pathSegment, type AgentCredentials, type Transport } from './transport';
import type { api } from './wire';

/** `sha256:` + hex sha256 of canonicalize({type, payload, signer_agent_id}): the id the registry gives an object. */
export function objectIdOf(type: string, payload: unknown, signerAgentId: string): string {
  return `sha256:${sha256Hex(canonicalize({ type, payload, signer_agent_id: signerAgentId }))}`;
}

/** Base64 ed25519 over canonicalize(payload): the signature of a registry object. */
export function signObjectPayload(payload: unknown, privateKey: Uint8Array): string {
  return signCanonical(payload, privateKey);
}

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
      } satisfies api.StoreObjectRequest,
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
