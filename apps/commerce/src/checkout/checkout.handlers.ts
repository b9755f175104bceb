import { status } from '@grpc/grpc-js';
import { DomainError, unary, type Logger } from '@exchange/platform';
import type { commerceV1 } from '@exchange/proto';
import type { CommerceRuntime } from '../service/runtime';

// PLACEHOLDER until the area lands: every RPC answers UNIMPLEMENTED not_implemented.
const todo = (): Promise<never> => Promise.reject(new DomainError(status.UNIMPLEMENTED, 'not_implemented', 'not implemented yet'));

export function checkoutHandlers(_r: CommerceRuntime, logger: Logger): Pick<commerceV1.CommerceServiceServer, 'createCheckout' | 'getCheckout' | 'updateCheckout' | 'completeCheckout' | 'cancelCheckout' | 'submitApproval' | 'applyDiscount'> {
  return {
    createCheckout: unary(logger, 'createCheckout', todo),
    getCheckout: unary(logger, 'getCheckout', todo),
    updateCheckout: unary(logger, 'updateCheckout', todo),
    completeCheckout: unary(logger, 'completeCheckout', todo),
    cancelCheckout: unary(logger, 'cancelCheckout', todo),
    submitApproval: unary(logger, 'submitApproval', todo),
    applyDiscount: unary(logger, 'applyDiscount', todo),
  };
}
