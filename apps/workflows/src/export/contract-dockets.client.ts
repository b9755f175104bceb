import { status } from '@grpc/grpc-js';
import type { Docket } from '@exchange/casefile';
import { DomainError, errorInfoFromGrpc, errors, type CallOptions } from '@exchange/platform';
import type { RegistryClient } from '../clients/clients';
import type { ContractDocketSource } from './run-docket';

// A shard contract's casefile docket from the registry (ExportCasefile {subject: {contract_id}},
// records only). The registry decides access from gRPC metadata: `x-actor: operator:<name>` and NO
// `x-agent-id` is the operator's view (every record of the contract); an acting agent would
// narrow it to that agent's parties view, so none is sent.

/** Metadata for the registry: the operator who asked (else "operator:workflows"), request and trace ids. */
export function operatorCallOptions(call: { actor: string | null; requestId: string; traceId: string }): CallOptions {
  const actor = call.actor !== null && call.actor.startsWith('operator:') ? call.actor : 'operator:workflows';
  return { actor, requestId: call.requestId, traceId: call.traceId };
}

export class RegistryContractDockets implements ContractDocketSource {
  constructor(
    private readonly registry: RegistryClient,
    private readonly callOptions: CallOptions,
  ) {}

  async contractDocket(contractId: string): Promise<Docket> {
    let docketJson: string;
    try {
      const res = await this.registry.exportCasefile({ subject: { contractId, objectIds: [], artifactRefs: [] }, includePayloads: false }, this.callOptions);
      docketJson = res.docket?.docketJson ?? '';
    } catch (err) {
      const info = errorInfoFromGrpc(err);
      if (info.grpcCode === status.UNAVAILABLE || info.grpcCode === status.DEADLINE_EXCEEDED || info.grpcCode === status.UNIMPLEMENTED) {
        throw errors.unavailable('registry_unavailable', 'the registry is unavailable, retry later');
      }
      // The registry's own refusal (e.g. an unknown contract) passes through with its code.
      throw new DomainError(info.grpcCode, info.code, info.message, info.details);
    }
    if (docketJson === '') throw errors.unavailable('registry_unavailable', `the registry returned no docket for contract ${contractId}`);
    return JSON.parse(docketJson) as Docket;
  }
}
