import { parseAmount } from '@exchange/platform';
import type { ResponseCodec } from '../service/execute';

// Mutation results ⇄ their proto responses, and the stored form of a response (its proto3 JSON,
// kept with the idempotency key): a replay reads it back and maps it again, so it answers the
// first response byte for byte. Each area's mapper builds its codecs with `codec`; entities come
// back from proto with the helpers below (absent optional fields → null).

export const nul = <T>(v: T | undefined): T | null => (v === undefined ? null : v);
export const nulAmount = (v: string | undefined): bigint | null => (v === undefined ? null : parseAmount(v));
/** The domain name of a stored enum value (generated wire tables: the domain's names are the wire names). */
export function known<K extends string>(table: { toWire(value: number): K | undefined }, value: number, what: string): K {
  const k = table.toWire(value);
  if (k === undefined) throw new Error(`stored response has an unknown ${what} ${value}`);
  return k;
}
export const must = <T>(v: T | undefined, what: string): T => {
  if (v === undefined) throw new Error(`stored response lacks its ${what}`);
  return v;
};

export type Replay = { idempotentReplayed: boolean };
export const replay = (r: Replay) => ({ idempotentReplayed: r.idempotentReplayed });

/** A proto response message as ts-proto generates it. */
interface Message<M> {
  toJSON(message: M): unknown;
  fromJSON(json: unknown): M;
}

export function codec<R, M>(message: Message<M>, toProto: (r: R) => M, fromProto: (m: M) => R): ResponseCodec<R> {
  return { toJSON: (r) => message.toJSON(toProto(r)), fromJSON: (json) => fromProto(message.fromJSON(json)) };
}
