import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { validationErrorsToItems } from '../../plugins/app/error-mapping';
import { HttpProblem, problem } from '../../plugins/app/problem';
import { ARTIFACT_CHUNK_BYTES, type ArtifactUpload } from '../../plugins/app/registry-client';
import { UploadArtifactBody, type UploadArtifactBodyT } from './artifacts.schemas';
import { base64Chunks, base64DecodedLength, envelopeFromJson, visibilityFromJson } from './registry.mapper';

// POST /v1/artifacts bodies → the registry's client stream UploadArtifact (issue 12 findings 3, 6).
// The registry stages the chunks and stores them only when the stream ends with `commit`, sent
// here once the request is authenticated: a JSON body's signature was verified before the
// handler ran; an agent-signed multipart body is hashed while it streams and its signature is
// checked before the commit. Any failure aborts the stream, so a refused request leaves nothing.

// Multipart form fields (everything but `file`), checked with the JSON body's rules.
const UploadFields = Type.Omit(UploadArtifactBody, ['content_base64']);
const checkFields = Compile(UploadFields);
const FIELD_NAMES = new Set(['media_type', 'contract_id', 'access', 'parties', 'envelope', 'algorithm', 'recipient_key_ids', 'nonce']);

/** Form fields → the JSON body's shape (arrays repeated or as JSON text; envelope as JSON or flattened). */
export function uploadFieldsFromForm(form: Map<string, string[]>): Omit<UploadArtifactBodyT, 'content_base64'> {
  const unknown = [...form.keys()].filter((k) => !FIELD_NAMES.has(k));
  if (unknown.length > 0) {
    throw problem(400, 'validation_failed', `unknown form field ${unknown[0]}`, { errors: unknown.map((k) => ({ pointer: `/${k}`, message: 'unknown field' })) });
  }
  const one = (name: string): string | undefined => {
    const values = form.get(name);
    if (!values) return undefined;
    if (values.length > 1) throw problem(400, 'validation_failed', `form field ${name} is repeated`, { errors: [{ pointer: `/${name}`, message: 'must be sent once' }] });
    return values[0];
  };
  const list = (name: string): unknown => {
    const values = form.get(name);
    if (!values) return undefined;
    const only = values.length === 1 ? values[0] : undefined;
    if (only !== undefined && only.trimStart().startsWith('[')) {
      try {
        return JSON.parse(only) as unknown;
      } catch {
        throw problem(400, 'validation_failed', `form field ${name} is not a JSON array`, { errors: [{ pointer: `/${name}`, message: 'is not a JSON array' }] });
      }
    }
    return values;
  };
  let envelope: unknown;
  const envelopeText = one('envelope');
  if (envelopeText !== undefined) {
    try {
      envelope = JSON.parse(envelopeText) as unknown;
    } catch {
      throw problem(400, 'validation_failed', 'form field envelope is not JSON', { errors: [{ pointer: '/envelope', message: 'is not a JSON object' }] });
    }
  } else if (form.has('algorithm') || form.has('recipient_key_ids') || form.has('nonce')) {
    const nonce = one('nonce');
    envelope = { algorithm: one('algorithm'), recipient_key_ids: list('recipient_key_ids') ?? [], ...(nonce === undefined ? {} : { nonce }) };
  }
  const fields: Record<string, unknown> = {};
  for (const name of ['media_type', 'contract_id', 'access']) {
    const value = one(name);
    if (value !== undefined) fields[name] = value;
  }
  const parties = list('parties');
  if (parties !== undefined) fields['parties'] = parties;
  if (envelope !== undefined) fields['envelope'] = envelope;
  if (!checkFields.Check(fields)) {
    const errors = validationErrorsToItems([...checkFields.Errors(fields)] as never);
    throw problem(400, 'validation_failed', `form ${errors[0]?.pointer ?? ''} ${errors[0]?.message ?? 'is invalid'}`.trim(), { errors });
  }
  return fields as Omit<UploadArtifactBodyT, 'content_base64'>;
}

type UploadFieldsT = Omit<UploadArtifactBodyT, 'content_base64'>;

const metadataOf = (fields: UploadFieldsT) => ({
  mediaType: fields.media_type,
  contractId: fields.contract_id,
  access: visibilityFromJson(fields.access, 'parties'),
  parties: fields.parties ?? [],
  envelope: envelopeFromJson(fields.envelope),
});

/** A missing or blank Content-Type: neither JSON nor multipart can be read (400, not 415). */
export function requireUploadContentType(request: FastifyRequest): void {
  if ((request.headers['content-type'] ?? '').trim() === '') {
    throw problem(400, 'validation_failed', 'send the artifact as application/json or multipart/form-data: Content-Type is missing', {
      errors: [{ pointer: '/headers/content-type', message: 'is required' }],
    });
  }
}

/** An error of the multipart parser (busboy, @fastify/multipart) as the client's problem. */
function multipartProblem(err: unknown): unknown {
  if (err instanceof HttpProblem) return err;
  const e = err as { statusCode?: unknown; message?: unknown } | null;
  const message = typeof e?.message === 'string' ? e.message : 'malformed';
  if (e?.statusCode === 413) return problem(413, 'payload_too_large', `the multipart body exceeds a limit: ${message}`);
  return problem(400, 'malformed_multipart', `the multipart body cannot be read: ${message}`);
}

/** Iterates a parser's stream, turning only its own failures into problems. */
async function* parsed<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  try {
    for await (const item of source) yield item;
  } catch (err) {
    throw multipartProblem(err);
  }
}

export class ArtifactUploader {
  constructor(
    private readonly fastify: FastifyInstance,
    private readonly maxBytes: number,
  ) {}

  private tooLarge() {
    return problem(413, 'payload_too_large', `artifact content is larger than ${this.maxBytes} bytes`);
  }

  async json(request: FastifyRequest, body: unknown) {
    // Only a request without any body reaches here unvalidated (the schema checks JSON ones).
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw problem(400, 'validation_failed', 'the body is missing: send {content_base64, media_type, …} or multipart/form-data', {
        errors: [{ pointer: '', message: 'a body is required' }],
      });
    }
    const { content_base64: content, ...fields } = body as UploadArtifactBodyT;
    if (base64DecodedLength(content) > this.maxBytes) throw this.tooLarge();
    const upload = this.fastify.registry.uploadArtifact(metadataOf(fields), request.auth.callOptions);
    try {
      for (const chunk of base64Chunks(content, ARTIFACT_CHUNK_BYTES)) await upload.write(chunk);
    } catch (err) {
      upload.abort();
      throw err;
    }
    return upload.commit();
  }

  async multipart(request: FastifyRequest) {
    // An agent signs the sha256 of the raw body: hash the bytes as they arrive (the listener is
    // attached in the same tick as the parser's pipe, so both see every chunk).
    const deferred = request.auth.kind === 'agent';
    const bodyHash = createHash('sha256');
    if (deferred) request.raw.on('data', (chunk: Buffer) => bodyHash.update(chunk));
    const form = new Map<string, string[]>();
    let upload: ArtifactUpload | undefined;
    let size = 0;
    try {
      for await (const part of parsed(request.parts())) {
        if (part.type === 'field') {
          if (upload) throw problem(400, 'validation_failed', 'send the form fields before the `file` part', { errors: [{ pointer: `/${part.fieldname}`, message: 'must precede the file part' }] });
          form.set(part.fieldname, [...(form.get(part.fieldname) ?? []), String(part.value)]);
          continue;
        }
        if (part.fieldname !== 'file' || upload) {
          part.file.resume();
          throw problem(400, 'validation_failed', 'send exactly one file part named `file`', { errors: [{ pointer: `/${part.fieldname}`, message: 'unexpected file part' }] });
        }
        upload = this.fastify.registry.uploadArtifact(metadataOf(uploadFieldsFromForm(form)), request.auth.callOptions);
        for await (const chunk of parsed(part.file as AsyncIterable<Buffer>)) {
          size += chunk.length;
          if (size > this.maxBytes) throw this.tooLarge();
          // Stream chunks can be large (one socket read): forwarded in 64 KiB messages.
          for (let i = 0; i < chunk.length; i += ARTIFACT_CHUNK_BYTES) await upload.write(chunk.subarray(i, i + ARTIFACT_CHUNK_BYTES));
        }
        if (part.file.truncated) throw this.tooLarge();
      }
      if (!upload) throw problem(400, 'validation_failed', 'the form has no `file` part', { errors: [{ pointer: '/file', message: 'is required' }] });
      if (size === 0) throw problem(400, 'validation_failed', 'the file is empty', { errors: [{ pointer: '/file', message: 'must not be empty' }] });
      // The signature covers the whole body: checked before the registry is told to commit.
      if (deferred) await this.fastify.verifyStreamedBodySignature(request, bodyHash.digest('hex'));
    } catch (err) {
      upload?.abort();
      throw err;
    }
    return upload.commit();
  }
}
