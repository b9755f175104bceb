import { status } from '@grpc/grpc-js';
import { DomainError, createServiceClient, errorInfoFromGrpc, errors, type PromiseClient } from '@exchange/platform';
import { canonicalize } from '@exchange/crypto';
import { registryV1, registryV1Wire } from '@exchange/proto';
import type { ExchangeObjectInput, ExchangeObjectStore, StoredExchangeObject } from '../aliases/alias.ports';

type RegistryClient = PromiseClient<typeof registryV1.RegistryServiceService>;

const REGISTRY_DEADLINE_MS = 5_000;

/**
 * Registry StoreExchangeObject over gRPC. Identity calls it as a service (no actor, no acting
 * agent: the registry signs with the exchange key). A registry that cannot be reached is 503
 * registry_unavailable; its own refusals pass through with their code.
 */
export class GrpcExchangeObjectStore implements ExchangeObjectStore {
  private readonly client: RegistryClient;

  constructor(address: string) {
    this.client = createServiceClient(registryV1.RegistryServiceService, address, { defaultDeadlineMs: REGISTRY_DEADLINE_MS });
  }

  async store(input: ExchangeObjectInput, trace: { requestId: string | null; traceId: string | null }): Promise<StoredExchangeObject> {
    let res: registryV1.StoreExchangeObjectResponse;
    try {
      res = await this.client.storeExchangeObject(
        { type: input.type, payloadJson: canonicalize(input.payload), visibility: registryV1Wire.visibility.toProto(input.visibility), parties: input.parties, tags: [] },
        { requestId: trace.requestId ?? undefined, traceId: trace.traceId ?? undefined },
      );
    } catch (err) {
      const info = errorInfoFromGrpc(err);
      if (info.grpcCode === status.UNAVAILABLE || info.grpcCode === status.DEADLINE_EXCEEDED || info.grpcCode === status.UNIMPLEMENTED) {
        throw errors.unavailable('registry_unavailable', 'the registry is unavailable, retry later');
      }
      throw new DomainError(info.grpcCode, info.code, info.message, info.details);
    }
    const object = res.object;
    if (!object) throw errors.unavailable('registry_unavailable', 'the registry returned no object');
    return { objectId: object.objectId, payloadJson: object.payloadJson, signature: object.signature, created: res.created };
  }

  close(): void {
    this.client.close();
  }
}
