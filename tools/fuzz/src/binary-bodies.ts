// Bodies of the routes that take bytes rather than JSON: multipart artifact uploads and the
// raw .tar.gz of POST /ui/casefile/verify. Real archives are damaged, junk is compressed, and
// now and then a small gzip bomb goes in (the cap on inflated bytes must hold).
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { BodySpec } from './body-variants';
import { preview } from './mutate';

export interface MultipartField {
  name: string;
  value: string | Buffer;
  filename?: string;
  contentType?: string;
}

/** A multipart/form-data body with the given boundary (fields in order). */
export function multipartBody(fields: MultipartField[], boundary: string): Buffer {
  const parts: Buffer[] = [];
  for (const f of fields) {
    const disposition = `form-data; name="${f.name}"${f.filename !== undefined ? `; filename="${f.filename}"` : ''}`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${f.contentType ? `Content-Type: ${f.contentType}\r\n` : ''}\r\n`;
    parts.push(Buffer.from(head), Buffer.isBuffer(f.value) ? f.value : Buffer.from(f.value), Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(parts);
}

const BOUNDARY = 'fuzzboundary7MA4YWxkTrZu0gW';
const file = (content: string | Buffer, filename = 'a.txt'): MultipartField => ({ name: 'file', value: content, filename, contentType: 'text/plain' });

export const artifactRefOf = (bytes: string | Buffer) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/**
 * Multipart uploads: the form fields given (from the JSON schema's valid values) then a file,
 * and hostile forms of that. The file's content is unique (`nonce`), so whether a refused upload
 * was stored anyway can be checked by its ref.
 */
export function multipartVariant(fields: Record<string, string>, pick: number, valid: boolean, nonce = String(pick)): BodySpec {
  const base: MultipartField[] = Object.entries(fields).map(([name, value]) => ({ name, value }));
  const uniqueContent = `fuzz upload ${nonce}`;
  const make = (label: string, list: MultipartField[], boundary = BOUNDARY, type = `multipart/form-data; boundary=${boundary}`): BodySpec => ({
    body: multipartBody(list, boundary),
    contentType: type,
    headers: [],
    label: `multipart: ${label}`,
    ...(list.some((f) => f.name === 'file' && f.value === uniqueContent) ? { uploadRef: artifactRefOf(uniqueContent) } : {}),
  });
  if (valid) return make(`fields ${preview(Object.keys(fields).join(','), 40)} + file`, [...base, file(uniqueContent)]);
  const variants: Array<() => BodySpec> = [
    () => make('no file part', base),
    () => make('empty file', [...base, file('')]),
    () => make('file before the fields', [file(uniqueContent), ...base]),
    () => make('two files', [...base, file('one'), file('two')]),
    () => make('filename with traversal', [...base, file(uniqueContent, '../../../../etc/passwd')]),
    () => make('filename with NUL and CRLF', [...base, file(uniqueContent, 'a\u0000b\r\nX: y')]),
    () => make('field with NUL', [...base.map((f) => ({ ...f, value: `${String(f.value)}\u0000` })), file(uniqueContent)]),
    () => make('unknown field', [...base, { name: '__proto__', value: '{"admin":true}' }, file(uniqueContent)]),
    () => make('field repeated', [...base, ...base, file(uniqueContent)]),
    () => make('200 KiB field', [...base, { name: 'media_type', value: 'a'.repeat(200_000) }, file(uniqueContent)]),
    () => make('non-ASCII field names', [{ name: 'médïa_type', value: 'text/plain' }, file(uniqueContent)]),
    () => make('boundary mismatch', [...base, file(uniqueContent)], BOUNDARY, 'multipart/form-data; boundary=other'),
    () => ({ body: Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nunterminated`), contentType: `multipart/form-data; boundary=${BOUNDARY}`, headers: [], label: 'multipart: unterminated' }),
    () => ({ body: Buffer.from(''), contentType: `multipart/form-data; boundary=${BOUNDARY}`, headers: [], label: 'multipart: empty body' }),
    () => ({ body: null, contentType: `multipart/form-data; boundary=${BOUNDARY}`, headers: [], label: 'multipart: no body' }),
  ];
  return variants[pick % variants.length]();
}

let bomb: Buffer | null = null;
/** ~100 KiB of gzip that inflates to 100 MiB of zeros (built once). */
function gzipBomb(): Buffer {
  bomb ??= gzipSync(Buffer.alloc(100 * 1024 * 1024), { level: 9 });
  return bomb;
}

/** Raw archive bodies for POST /ui/casefile/verify. `archive` is a real casefile (.tar.gz) when the run has one. */
export function archiveVariant(archive: Buffer | null, pick: number, randomBytes: Buffer): BodySpec {
  const gz = (label: string, body: Buffer | null, type: string | null = 'application/gzip'): BodySpec => ({ body, contentType: type, headers: [], label: `archive: ${label}` });
  const real = archive ?? gzipSync(Buffer.from('not a tar'));
  const flipped = Buffer.from(real);
  if (flipped.length > 0) flipped[pick % flipped.length] ^= 0xff;
  const variants: Array<() => BodySpec> = [
    () => gz('real casefile', real),
    () => gz('real casefile, one byte flipped', flipped),
    () => gz('real casefile truncated', real.subarray(0, Math.floor(real.length / 2))),
    () => gz('random bytes', randomBytes),
    () => gz('gzip of random bytes', gzipSync(randomBytes)),
    () => gz('gzip of a 5000-deep JSON "tar"', gzipSync(Buffer.from('['.repeat(5000)))),
    () => gz('empty body', Buffer.alloc(0)),
    () => gz('no body', null, null),
    () => gz('as application/json', real, 'application/json'),
    () => gz('as text/plain', real, 'text/plain'),
    // The real bomb only now and then: the machine running the fuzzer is small too.
    () => (pick % 4 === 0 ? gz('gzip bomb (100 MiB of zeros)', gzipBomb()) : gz('gzip of 1 MiB of zeros', gzipSync(Buffer.alloc(1024 * 1024)))),
  ];
  return variants[pick % variants.length]();
}
