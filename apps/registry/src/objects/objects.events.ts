import type pg from 'pg';
import { registryV1, registryV1Wire, registryV1Events } from '@exchange/proto';
import type { Caller } from '../domain/caller';
import type { RegistryObject } from '../domain/records';
import { emit } from '../data/outbox';

// domain → proto, shared by the outbox event and the gRPC mapper (which re-exports it).
export function toProtoObject(o: RegistryObject): registryV1.RegistryObject {
  return {
    objectId: o.objectId,
    type: o.type,
    payloadJson: o.payloadJson,
    signerAgentId: o.signerAgentId,
    signature: o.signature,
    signerPublicKey: o.signerPublicKey,
    visibility: registryV1Wire.visibility.toProto(o.visibility),
    parties: o.parties,
    tags: o.tags,
    createdAt: o.createdAt,
  };
}

export function objectStored(client: pg.ClientBase, o: RegistryObject, caller: Caller): Promise<void> {
  return emit(client, 'exchange.registry.object.stored', o.objectId, registryV1Events.ObjectStored.toJSON({ object: toProtoObject(o) }), caller);
}
