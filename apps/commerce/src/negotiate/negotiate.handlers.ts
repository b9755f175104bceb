import { status } from '@grpc/grpc-js';
import { DomainError, unary, type Logger } from '@exchange/platform';
import type { commerceV1 } from '@exchange/proto';
import type { CommerceRuntime } from '../service/runtime';

// PLACEHOLDER until the area lands: every RPC answers UNIMPLEMENTED not_implemented.
const todo = (): Promise<never> => Promise.reject(new DomainError(status.UNIMPLEMENTED, 'not_implemented', 'not implemented yet'));

export function negotiateHandlers(_r: CommerceRuntime, logger: Logger): Pick<commerceV1.CommerceServiceServer, 'negotiate'> {
  return {
    negotiate: unary(logger, 'negotiate', todo),
  };
}
