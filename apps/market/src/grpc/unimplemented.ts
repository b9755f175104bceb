import { status, type UntypedServiceImplementation } from '@grpc/grpc-js';

/**
 * TEMPORARY scaffolding while issue 6 is built: every method of an area whose handlers are not
 * written yet answers UNIMPLEMENTED. Each area owner replaces its use with real handlers; this
 * file is deleted when the last one is gone.
 */
export function unimplemented<T>(): T {
  return new Proxy({} as UntypedServiceImplementation, {
    get: () => (_call: unknown, callback: (err: { code: status; details: string }) => void) =>
      callback({ code: status.UNIMPLEMENTED, details: 'not implemented yet' }),
  }) as unknown as T;
}
