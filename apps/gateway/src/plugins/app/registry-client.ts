import { closeChannel, DEFAULT_DEADLINE_MS, loopbackTarget, toMetadata, unaryMethodsOf, type CallOptions, type ClientMethod, type UnaryChannel } from '@exchange/platform';
import { registryV1 } from '@exchange/proto';
import { Client, credentials, type ChannelOptions, type ServiceError } from '@grpc/grpc-js';
import { createHash } from 'node:crypto';
import type { HealthMethod, UnaryMethods } from './grpc-call';

// The registry client: the unary RPCs as promises (like createServiceClient) plus the two
// streaming RPCs, on one channel whose messages may be 64 MiB (casefile archives travel unary).
// Kept in the gateway: @exchange/platform's client covers unary calls only.

export const REGISTRY_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
/** Upload/download chunk size (the registry streams 64 KiB chunks too). */
export const ARTIFACT_CHUNK_BYTES = 64 * 1024;

/** The registry's message limits, both ways (gRPC's channel options and in-process calls). */
const LIMITS = { maxSendBytes: REGISTRY_MAX_MESSAGE_BYTES, maxReceiveBytes: REGISTRY_MAX_MESSAGE_BYTES };

const CHANNEL_OPTIONS: ChannelOptions = {
  'grpc.keepalive_time_ms': 30_000,
  'grpc.keepalive_timeout_ms': 10_000,
  'grpc.keepalive_permit_without_calls': 1,
  'grpc.max_send_message_length': LIMITS.maxSendBytes,
  'grpc.max_receive_message_length': LIMITS.maxReceiveBytes,
  'grpc.enable_channelz': 0,
};

const S = registryV1.RegistryServiceService;
type Def = typeof S;


/**
 * An upload in progress. The registry stages the chunks and stores them only on `commit()`, which
 * the caller sends once the request is authenticated; `abort()` (or any end without a commit)
 * leaves nothing behind.
 */
export interface ArtifactUpload {
  /** Resolves when the chunk may be followed by another (back-pressure). Rejects once the call failed. */
  write(chunk: Buffer): Promise<void>;
  /** The final message: commit with the sha256 of every chunk written, then half-close. */
  commit(): Promise<registryV1.UploadArtifactResponse>;
  abort(): void;
  /** The call's outcome (rejects with the ServiceError). */
  readonly result: Promise<registryV1.UploadArtifactResponse>;
}

export interface ArtifactDownload {
  artifact: registryV1.Artifact;
  /** The remaining chunks, in order. */
  chunks: AsyncIterable<Buffer>;
  cancel(): void;
}

export type RegistryClient = UnaryMethods<Def> & {
  uploadArtifact(metadata: registryV1.ArtifactMetadata, opts?: CallOptions): ArtifactUpload;
  downloadArtifact(req: registryV1.DownloadArtifactRequest, opts?: CallOptions): Promise<ArtifactDownload>;
  healthCheck(req: { service: string }, opts: { deadlineMs: number; requestId: string }): Promise<{ status: string }>;
  close(): void;
};

export interface RegistryClientOptions {
  defaultDeadlineMs?: number;
  /** Deadline of upload/download streams (large bodies over slow links). */
  streamDeadlineMs?: number;
  healthCheck: HealthMethod;
}

export function createRegistryClient(address: string, opts: RegistryClientOptions): RegistryClient {
  const defaultDeadlineMs = opts.defaultDeadlineMs ?? DEFAULT_DEADLINE_MS;
  const streamDeadlineMs = opts.streamDeadlineMs ?? 10 * 60_000;
  const client = new Client(address, credentials.createInsecure(), CHANNEL_OPTIONS);
  const channel: UnaryChannel = { client, loopback: loopbackTarget(address), ...LIMITS };
  const unaryMethods = { ...S, healthCheck: opts.healthCheck } as unknown as Record<string, ClientMethod>;
  const methods: Record<string, unknown> = { ...unaryMethodsOf(channel, unaryMethods, defaultDeadlineMs), close: () => closeChannel(channel) };

  methods.uploadArtifact = (metadata: registryV1.ArtifactMetadata, callOpts?: CallOptions): ArtifactUpload => {
    let settle!: { resolve: (r: registryV1.UploadArtifactResponse) => void; reject: (e: ServiceError) => void };
    const result = new Promise<registryV1.UploadArtifactResponse>((resolve, reject) => (settle = { resolve, reject }));
    result.catch(() => undefined); // observed through write()/commit(); never an unhandled rejection
    let failed: ServiceError | null = null;
    const call = client.makeClientStreamRequest(
      S.uploadArtifact.path,
      S.uploadArtifact.requestSerialize,
      S.uploadArtifact.responseDeserialize,
      toMetadata(callOpts),
      { deadline: Date.now() + (callOpts?.deadlineMs ?? streamDeadlineMs) },
      (err, res) => {
        if (err) {
          failed = err;
          settle.reject(err);
        } else settle.resolve(res as registryV1.UploadArtifactResponse);
      },
    );
    call.on('error', () => undefined); // reported through the callback
    call.write({ part: { $case: 'metadata', value: metadata } } satisfies registryV1.UploadArtifactRequest);
    // Bound into the commit so that the registry stores exactly the bytes this gateway sent.
    const contentHash = createHash('sha256');
    const write = (chunk: Buffer) =>
      new Promise<void>((resolve, reject) => {
        if (failed) return reject(failed);
        contentHash.update(chunk);
        const ok = call.write({ part: { $case: 'chunk', value: chunk } } satisfies registryV1.UploadArtifactRequest);
        if (ok) return resolve();
        const onDrain = () => {
          cleanup();
          resolve();
        };
        const onFail = (err: unknown) => {
          cleanup();
          reject(err);
        };
        const cleanup = () => {
          call.off('drain', onDrain);
        };
        call.once('drain', onDrain);
        result.catch(onFail);
      });
    return {
      write,
      result,
      commit: () => {
        if (!failed) call.write({ part: { $case: 'commit', value: { contentSha256: contentHash.digest('hex') } } } satisfies registryV1.UploadArtifactRequest);
        call.end();
        return result;
      },
      abort: () => call.cancel(),
    };
  };

  methods.downloadArtifact = (req: registryV1.DownloadArtifactRequest, callOpts?: CallOptions): Promise<ArtifactDownload> =>
    new Promise((resolve, reject) => {
      const call = client.makeServerStreamRequest(
        S.downloadArtifact.path,
        S.downloadArtifact.requestSerialize,
        S.downloadArtifact.responseDeserialize,
        req,
        toMetadata(callOpts),
        { deadline: Date.now() + (callOpts?.deadlineMs ?? streamDeadlineMs) },
      );
      let started = false;
      const onError = (err: unknown) => {
        if (!started) reject(err);
      };
      call.on('error', onError);
      call.once('data', (first: registryV1.DownloadArtifactResponse) => {
        started = true;
        call.pause();
        if (first.part?.$case !== 'artifact') {
          call.cancel();
          reject(new Error('registry download did not start with the artifact metadata'));
          return;
        }
        resolve({
          artifact: first.part.value,
          chunks: chunksOf(call),
          cancel: () => call.cancel(),
        });
      });
      call.once('end', () => {
        if (!started) reject(new Error('registry download ended without the artifact metadata'));
      });
    });

  return methods as RegistryClient;
}

async function* chunksOf(call: NodeJS.ReadableStream & { resume(): unknown }): AsyncIterable<Buffer> {
  for await (const message of call as AsyncIterable<registryV1.DownloadArtifactResponse>) {
    if (message.part?.$case === 'chunk') yield Buffer.from(message.part.value);
  }
}
