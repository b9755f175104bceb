import { closeChannel, DEFAULT_DEADLINE_MS, loopbackTarget, toMetadata, unaryMethodsOf, type CallOptions, type ClientMethod, type UnaryChannel } from '@exchange/platform';
import { telemetryV1 } from '@exchange/proto';
import { Client, credentials, type ClientReadableStream } from '@grpc/grpc-js';
import { Readable } from 'node:stream';
import type { HealthMethod, UnaryMethods } from './grpc-call';

// The telemetry client: the unary RPCs as promises plus the two JSONL exports (server-streaming),
// on one channel. An export opens as a byte stream only once telemetry sent its first chunk (or
// ended): a refusal before that (403, 400, 404) is still the call's error, answered as a problem.

const S = telemetryV1.TelemetryServiceService;
type Def = typeof S;

/** Exports of a million events take a while; the unary default (5 s) would cut them. */
export const EXPORT_DEADLINE_MS = 30 * 60_000;

export type TelemetryClient = UnaryMethods<Def> & {
  /** Operator events as JSONL bytes, read as the HTTP client takes them (back-pressure reaches telemetry). */
  exportOperatorEvents(req: telemetryV1.ExportOperatorEventsRequest, opts?: CallOptions): Promise<Readable>;
  exportContractTimeline(req: telemetryV1.ExportContractTimelineRequest, opts?: CallOptions): Promise<Readable>;
  healthCheck(req: { service: string }, opts: { deadlineMs: number; requestId: string }): Promise<{ status: string }>;
  close(): void;
};

export function createTelemetryClient(
  address: string,
  opts: { defaultDeadlineMs?: number; exportDeadlineMs?: number; healthCheck: HealthMethod },
): TelemetryClient {
  const defaultDeadlineMs = opts.defaultDeadlineMs ?? DEFAULT_DEADLINE_MS;
  const exportDeadlineMs = opts.exportDeadlineMs ?? EXPORT_DEADLINE_MS;
  const client = new Client(address, credentials.createInsecure(), {
    'grpc.keepalive_time_ms': 30_000,
    'grpc.keepalive_timeout_ms': 10_000,
    'grpc.keepalive_permit_without_calls': 1,
    'grpc.enable_channelz': 0,
  });
  const stream =
    <Req>(method: { path: string; requestSerialize: (v: Req) => Buffer; responseDeserialize: (b: Buffer) => { jsonl: Buffer } }) =>
    (req: Req, callOpts?: CallOptions): Promise<Readable> =>
      openJsonl(
        client.makeServerStreamRequest(method.path, method.requestSerialize, method.responseDeserialize, req, toMetadata(callOpts), {
          deadline: Date.now() + (callOpts?.deadlineMs ?? exportDeadlineMs),
        }),
      );
  const channel: UnaryChannel = { client, loopback: loopbackTarget(address) };
  return {
    // The export streams are server-streaming: unaryMethodsOf skips them.
    ...unaryMethodsOf(channel, { ...S, healthCheck: opts.healthCheck } as unknown as Record<string, ClientMethod>, defaultDeadlineMs),
    exportOperatorEvents: stream(S.exportOperatorEvents),
    exportContractTimeline: stream(S.exportContractTimeline),
    close: () => closeChannel(channel),
  } as TelemetryClient;
}

/**
 * Waits for the first message (an error before it rejects: nothing was sent to the HTTP client
 * yet), then hands out the chunks' bytes as a Readable that pulls one message at a time. An error
 * later errors the Readable (the HTTP response is aborted); a Readable destroyed early (client
 * gone) cancels the call.
 */
export async function openJsonl(call: ClientReadableStream<{ jsonl: Buffer }>): Promise<Readable> {
  call.on('error', () => undefined); // the iterator reports errors; a cancel's own error is expected
  const messages = call[Symbol.asyncIterator]() as AsyncIterator<{ jsonl: Buffer }>;
  let first: IteratorResult<{ jsonl: Buffer }>;
  try {
    first = await messages.next();
  } catch (err) {
    call.cancel();
    throw err;
  }
  async function* bytes(): AsyncGenerator<Buffer> {
    try {
      let next = first;
      while (!next.done) {
        if (next.value.jsonl.length > 0) yield Buffer.from(next.value.jsonl);
        next = await messages.next();
      }
    } finally {
      call.cancel(); // no-op after the end; stops telemetry when the HTTP client went away
    }
  }
  return Readable.from(bytes(), { objectMode: false });
}
