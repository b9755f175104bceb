import { unary, type Logger } from '@exchange/platform';
import type { registryV1 } from '@exchange/proto';
import type { RegistryObject } from '../domain/records';
import { callerOf, pageRequest } from '../grpc/request.mapper';
import { storeExchangeObjectInput, storeObjectInput, toProtoObject } from './objects.mapper';
import type { ObjectsService, Stored } from './objects.service';

export type ObjectsRpcs = Pick<registryV1.RegistryServiceServer, 'storeObject' | 'getObject' | 'listObjects' | 'storeExchangeObject'>;

/** proto → domain → use case → proto: the rules live in the service; errors and logging in platform's `unary`. */
export function objectsHandlers(objects: ObjectsService, logger: Logger): ObjectsRpcs {
  const stored = ({ object, created }: Stored<RegistryObject>) => ({ object: toProtoObject(object), created });
  return {
    storeObject: unary(logger, 'StoreObject', async (req: registryV1.StoreObjectRequest, ctx) => stored(await objects.store(storeObjectInput(req), callerOf(ctx)))),
    getObject: unary(logger, 'GetObject', async (req: registryV1.GetObjectRequest, ctx) => ({
      object: toProtoObject(await objects.readable(req.objectId, callerOf(ctx), req.type)),
    })),
    listObjects: unary(logger, 'ListObjects', async (req: registryV1.ListObjectsRequest, ctx) => {
      const { items, nextCursor } = await objects.list({ type: req.type, tag: req.tag }, pageRequest(req.page), callerOf(ctx));
      return { objects: items.map(toProtoObject), page: { nextCursor } };
    }),
    storeExchangeObject: unary(logger, 'StoreExchangeObject', async (req: registryV1.StoreExchangeObjectRequest) =>
      stored(await objects.storeExchange(storeExchangeObjectInput(req))),
    ),
  };
}
