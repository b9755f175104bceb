import type pg from 'pg';
import { enqueueEvent, newEvent, pgSqlExecutor } from '@exchange/events';
import { registryV1Events } from '@exchange/proto';
import type { Caller } from '../domain/caller';
import type { ArtifactAck, ArtifactUpload, DeliveryReceipt, RegistryObject } from '../domain/records';
import { toProtoAck, toProtoArtifact, toProtoObject, toProtoReceipt } from './registry.encode';

// Outbox writers: call them inside the transaction of the change they report. Payloads are the
// JSON form of events.proto's messages; subjects exchange.registry.<entity>.<verb>.
export const REGISTRY_EVENT_SOURCE = 'registry';

async function emit(client: pg.ClientBase, type: string, subjectId: string, data: unknown, caller: Caller): Promise<void> {
  await enqueueEvent(pgSqlExecutor(client), newEvent({ type, source: REGISTRY_EVENT_SOURCE, subjectId, actor: caller.actor, data }));
}

export function objectStored(client: pg.ClientBase, o: RegistryObject, caller: Caller): Promise<void> {
  return emit(client, 'exchange.registry.object.stored', o.objectId, registryV1Events.ObjectStored.toJSON({ object: toProtoObject(o) }), caller);
}

export function artifactChanged(
  client: pg.ClientBase,
  verb: 'uploaded' | 'removed' | 'reinstated',
  a: ArtifactUpload,
  caller: Caller,
  reason?: string,
): Promise<void> {
  const data = registryV1Events.ArtifactChanged.toJSON({
    artifact: toProtoArtifact(a),
    actor: verb === 'uploaded' ? undefined : (caller.actor ?? undefined),
    reason,
  });
  return emit(client, `exchange.registry.artifact.${verb}`, a.artifactRef, data, caller);
}

export function artifactDelivered(client: pg.ClientBase, r: DeliveryReceipt, caller: Caller): Promise<void> {
  return emit(client, 'exchange.registry.artifact.delivered', r.artifactRef, registryV1Events.ArtifactDelivered.toJSON({ receipt: toProtoReceipt(r) }), caller);
}

export function artifactAcked(client: pg.ClientBase, a: ArtifactAck, caller: Caller): Promise<void> {
  return emit(client, 'exchange.registry.artifact.acked', a.artifactRef, registryV1Events.ArtifactAcked.toJSON({ ack: toProtoAck(a) }), caller);
}
