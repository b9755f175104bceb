/** A message body as the bytes on the wire; strings are taken as UTF-8. */
export type BodyInput = Uint8Array | string;

export function bodyBytes(body: BodyInput): Buffer {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

/** Seconds since the epoch from an injectable clock (ms number or Date), default the real clock. */
export type Clock = () => number | Date;

export function nowSeconds(clock?: Clock): number {
  const t = clock ? clock() : Date.now();
  return Math.floor((t instanceof Date ? t.getTime() : t) / 1000);
}
