// Whole-body hostility, independent of the schema: no body, empty, not JSON, the wrong content
// type or encoding, over the size limit, chunked… applied to a valid JSON body's text.
import { gzipSync } from 'node:zlib';

export interface BodySpec {
  body: Buffer | null;
  contentType: string | null;
  headers: Array<[string, string]>;
  label: string;
  /** The artifact ref of a file part no other request sends: it must not exist after a refusal. */
  uploadRef?: string;
}

const JSON_TYPE = 'application/json';

export const jsonBody = (text: string, label = 'valid body'): BodySpec => ({ body: Buffer.from(text), contentType: JSON_TYPE, headers: [], label });

const spec = (label: string, body: Buffer | string | null, contentType: string | null = JSON_TYPE, headers: Array<[string, string]> = []): BodySpec => ({
  body: body === null ? null : Buffer.isBuffer(body) ? body : Buffer.from(body),
  contentType,
  headers,
  label,
});

/** Inserts raw bytes just after the first `"` of the text (inside the first key or string). */
function insertBytes(text: string, bytes: number[]): Buffer {
  const at = Math.max(0, text.indexOf('"') + 1);
  return Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from(bytes), Buffer.from(text.slice(at))]);
}

function chunked(text: string): Buffer {
  const data = Buffer.from(text);
  const half = Math.floor(data.length / 2);
  const chunk = (b: Buffer) => Buffer.concat([Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from('\r\n')]);
  return Buffer.concat([chunk(data.subarray(0, half)), chunk(data.subarray(half)), Buffer.from('0\r\n\r\n')]);
}

export const CONTENT_VARIANTS: ReadonlyArray<(valid: string) => BodySpec> = [
  () => spec('no body, no content type', null, null),
  () => spec('no body, content type json', null),
  () => spec('empty body', ''),
  () => spec('body "{"', '{'),
  () => spec('body {"a":}', '{"a":}'),
  () => spec('body []', '[]'),
  () => spec('body "a string"', '"a string"'),
  () => spec('body 1e400', '1e400'),
  () => spec('body null', 'null'),
  (v) => spec('valid JSON as text/plain', v, 'text/plain'),
  () => spec('form-urlencoded body', 'a=1&b=%00', 'application/x-www-form-urlencoded'),
  () => spec('multipart with garbage', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n\u0000\r\n--x', 'multipart/form-data; boundary=x'),
  () => spec('multipart without boundary', 'abc', 'multipart/form-data'),
  (v) => spec('UTF-16 body declared as such', Buffer.from(v, 'utf16le'), 'application/json; charset=utf-16'),
  (v) => spec('UTF-16 body declared as UTF-8', Buffer.from(v, 'utf16le')),
  (v) => spec('byte-order mark before JSON', `\uFEFF${v}`),
  (v) => spec('invalid UTF-8 inside a string', insertBytes(v, [0xc3, 0x28, 0xff, 0xfe])),
  (v) => spec('raw NUL byte inside a string', insertBytes(v, [0x00])),
  (v) => spec('overlong UTF-8 NUL inside a string', insertBytes(v, [0xc0, 0x80])),
  () => spec('lone surrogate escape', '{"a":"\\ud800"}'),
  (v) => spec('Content-Encoding gzip, plain body', v, JSON_TYPE, [['Content-Encoding', 'gzip']]),
  (v) => spec('Content-Encoding gzip, gzipped body', gzipSync(Buffer.from(v)), JSON_TYPE, [['Content-Encoding', 'gzip']]),
  (v) => spec('Content-Encoding br', v, JSON_TYPE, [['Content-Encoding', 'br']]),
  (v) => spec('JSON without content type', v, null),
  () => spec('XML body', '<?xml version="1.0"?><a/>', 'application/xml'),
  (v) => spec('1.2 MiB of whitespace then JSON', ' '.repeat(1_200_000) + v),
  () => spec('objects nested 5000 deep', '{"a":'.repeat(5000) + '1' + '}'.repeat(5000)),
  () => spec('arrays nested 100000 deep', '['.repeat(100_000) + ']'.repeat(100_000)),
  () => spec('unclosed nesting 50000 deep', '['.repeat(50_000)),
  (v) => spec('trailing garbage after JSON', `${v} x`),
  (v) => spec('two JSON documents', `${v}${v}`),
  (v) => spec('content type upper case', v, 'APPLICATION/JSON'),
  (v) => spec('content type problem+json', v, 'application/problem+json'),
  (v) => spec('content type with bogus charset', v, 'application/json; charset=ebcdic'),
  (v) => spec('content type with NUL', v, 'application/json\u0000'),
  (v) => spec('content type non-ASCII', v, 'application/jsön'),
  (v) => spec('chunked transfer encoding', chunked(v), JSON_TYPE, [['Transfer-Encoding', 'chunked']]),
  (v) => spec('Expect: 100-continue', v, JSON_TYPE, [['Expect', '100-continue']]),
];

export function contentVariant(validText: string, pick: number): BodySpec {
  return CONTENT_VARIANTS[pick % CONTENT_VARIANTS.length](validText);
}
