import { errors } from '@exchange/platform';

// proto ⇄ domain for the gRPC layer: the encoders are shared with the outbox events (events/market.encode).
export * from '../events/market.encode';

/** An enum a request must carry (UNSPECIFIED/unknown → 400 validation_failed naming the field). */
export function requiredEnum<D extends string>(map: { fromProto: (p: number | undefined) => D | undefined }, value: number, field: string): D {
  const d = map.fromProto(value);
  if (d === undefined) throw errors.invalidArgument('validation_failed', `${field} is required`, { field });
  return d;
}

/** An optional filter enum: absent or UNSPECIFIED → no filter. */
export function optionalEnum<D extends string>(map: { fromProto: (p: number | undefined) => D | undefined }, value: number | undefined, field: string): D | undefined {
  if (value === undefined || value === 0) return undefined;
  const d = map.fromProto(value);
  if (d === undefined) throw errors.invalidArgument('validation_failed', `${field} is not a known value`, { field });
  return d;
}

