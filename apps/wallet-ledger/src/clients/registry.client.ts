import { status } from '@grpc/grpc-js';
import { DomainError, errorInfoFromGrpc, errors, type PromiseClient } from '@exchange/platform';
import { registryV1, registryV1Wire } from '@exchange/proto';
import type { SignedObjectStore, StoredObject, Trace } from '../domain/metering.ports';

export type RegistryClient = PromiseClient<typeof registryV1.RegistryServiceService>;

/**
 * The registry's StoreObject / StoreExchangeObject, called as a service (no actor: the registry
 * checks the agent's signature itself, or signs with the exchange key). Without a configured
 * registry every call is 503 registry_unavailable.
 */
export class GrpcSignedObjectStore implements SignedObjectStore {
  constructor(private readonly client: RegistryClient | undefined) {}

  storeAgentObject(input: Parameters<SignedObjectStore['storeAgentObject']>[0], trace: Trace): Promise<StoredObject> {
    return this.call(async (client) => {
      const res = await client.storeObject(
        { ...input, visibility: registryV1Wire.visibility.toProto(input.visibility) },
        { requestId: trace.requestId, traceId: trace.traceId },
      );
      return stored(res.object, res.created);
    });
  }

  storeExchangeObject(input: Parameters<SignedObjectStore['storeExchangeObject']>[0], trace: Trace): Promise<StoredObject> {
    return this.call(async (client) => {
      const res = await client.storeExchangeObject(
        { ...input, visibility: registryV1Wire.visibility.toProto(input.visibility) },
        { requestId: trace.requestId, traceId: trace.traceId },
      );
      return stored(res.object, res.created);
    });
  }

  private async call(fn: (client: RegistryClient) => Promise<StoredObject>): Promise<StoredObject> {
    if (!this.client) throw errors.unavailable('registry_unavailable', 'no registry is configured (REGISTRY_GRPC_URL)');
    try {
      return await fn(this.client);
    } catch (err) {
      if (err instanceof DomainError) throw err;
      const info = errorInfoFromGrpc(err);
      if (info.grpcCode === status.UNAVAILABLE || info.grpcCode === status.DEADLINE_EXCEEDED || info.grpcCode === status.UNIMPLEMENTED) {
        throw errors.unavailable('registry_unavailable', 'the registry is unavailable, retry later');
      }
      throw new DomainError(info.grpcCode, info.code, info.message, info.details);
    }
  }
}

function stored(object: registryV1.RegistryObject | undefined, created: boolean): StoredObject {
  if (!object) throw errors.unavailable('registry_unavailable', 'the registry returned no object');
  return {
    objectId: object.objectId,
    payloadJson: object.payloadJson,
    signerAgentId: object.signerAgentId,
    signature: object.signature,
    signerPublicKey: object.signerPublicKey,
    created,
  };
}
