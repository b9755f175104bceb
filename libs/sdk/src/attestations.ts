// Attestations (`client.attestations`): objects of type `attestation`, queried by subject, signer
// and time, and exported as a signed docket.
import { paginate, type Page, type PageParams } from './pagination';
import { iso } from './registry-base';
import type { AttestationPayload, CasefileExport, RegistryObject } from './registry-types';
import type { Transport } from './transport';

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
