import { status, type handleClientStreamingCall, type handleServerStreamingCall } from '@grpc/grpc-js';
import { callContextFromMetadata, errors, serverStream, streamErrorStatus, unary, writeWithBackpressure, type Logger } from '@exchange/platform';
import type { registryV1 } from '@exchange/proto';
import { callerOf, pageRequest } from '../grpc/request.mapper';
import { ackInput, toProtoAck, toProtoArtifact, toProtoEnvelope, toProtoReceipt, uploadMetadata } from './artifacts.mapper';
import type { ArtifactsService } from './artifacts.service';
import type { UploadPart } from './upload-parts';

export type ArtifactsRpcs = Pick<
  registryV1.RegistryServiceServer,
  | 'uploadArtifact'
  | 'downloadArtifact'
  | 'getArtifact'
  | 'getArtifactEnvelope'
  | 'ackArtifact'
  | 'listDeliveryReceipts'
  | 'takedownArtifact'
  | 'reinstateArtifact'
>;

/** Download chunk size. */
export const CHUNK_BYTES = 64 * 1024;

function uploadHandler(artifacts: ArtifactsService, logger: Logger): handleClientStreamingCall<registryV1.UploadArtifactRequest, registryV1.UploadArtifactResponse> {
  return (call, callback) => {
    const ctx = callContextFromMetadata(call.metadata, logger);
    const run = async () => {
      const iter = call[Symbol.asyncIterator]() as AsyncIterator<registryV1.UploadArtifactRequest>;
      const first = await iter.next();
      const part = first.done ? undefined : (first.value as registryV1.UploadArtifactRequest).part;
      if (part?.$case !== 'metadata') throw errors.invalidArgument('validation_failed', 'the first upload message must be metadata', { field: 'metadata' });
      // Read by hand (not for-await) so that the service stopping at the commit does not
      // destroy the call before its answer is sent.
      async function* parts(): AsyncGenerator<UploadPart> {
        for (;;) {
          const next = await iter.next();
          if (next.done) return;
          const p = (next.value as registryV1.UploadArtifactRequest).part;
          if (p?.$case === 'chunk') yield { kind: 'chunk', bytes: p.value };
          else if (p?.$case === 'commit') yield { kind: 'commit', contentSha256: p.value.contentSha256 };
          else throw errors.invalidArgument('validation_failed', 'only chunks and then one commit may follow the metadata', { field: 'chunk' });
        }
      }
      const { artifact, created } = await artifacts.upload(uploadMetadata(part.value), parts(), callerOf(ctx));
      return { artifact: toProtoArtifact(artifact), created };
    };
    run().then(
      (res) => {
        logger.info({ method: 'UploadArtifact', code: status.OK, request_id: ctx.requestId }, 'rpc');
        callback(null, res);
      },
      (err: unknown) => callback(streamErrorStatus(err, logger, 'UploadArtifact'), null),
    );
  };
}

function downloadHandler(artifacts: ArtifactsService, logger: Logger): handleServerStreamingCall<registryV1.DownloadArtifactRequest, registryV1.DownloadArtifactResponse> {
  return serverStream(logger, 'DownloadArtifact', async (call, ctx) => {
    const { artifact, bytes, delivered } = await artifacts.openDownload(call.request.artifactRef, callerOf(ctx));
    const writeChunk = (chunk: Buffer) => writeWithBackpressure(call, { part: { $case: 'chunk', value: chunk } });
    if (!(await writeWithBackpressure(call, { part: { $case: 'artifact', value: toProtoArtifact(artifact) } }))) {
      bytes.destroy();
      return;
    }
    let pending: Buffer = Buffer.alloc(0);
    try {
      for await (const data of bytes) {
        if (call.cancelled) return;
        pending = pending.length === 0 ? (data as Buffer) : Buffer.concat([pending, data as Buffer]);
        while (pending.length >= CHUNK_BYTES) {
          if (!(await writeChunk(pending.subarray(0, CHUNK_BYTES)))) return;
          pending = pending.subarray(CHUNK_BYTES);
        }
      }
      if (pending.length > 0 && !(await writeChunk(pending))) return;
    } finally {
      bytes.destroy();
    }
    // A receipt only for bytes the client took to the end.
    if (call.cancelled) return;
    await delivered();
  });
}

/** proto → domain → use case → proto: the rules live in the service; errors and logging in platform's `unary` and `serverStream` (the upload maps errors with `streamErrorStatus`, alike). */
export function artifactsHandlers(artifacts: ArtifactsService, logger: Logger): ArtifactsRpcs {
  return {
    uploadArtifact: uploadHandler(artifacts, logger),
    downloadArtifact: downloadHandler(artifacts, logger),
    getArtifact: unary(logger, 'GetArtifact', async (req: registryV1.GetArtifactRequest, ctx) => ({
      artifact: toProtoArtifact(await artifacts.readable(req.artifactRef, callerOf(ctx))),
    })),
    getArtifactEnvelope: unary(logger, 'GetArtifactEnvelope', async (req: registryV1.GetArtifactEnvelopeRequest, ctx) => {
      const { artifactRef, envelope } = await artifacts.envelope(req.artifactRef, callerOf(ctx));
      return { artifactRef, envelope: toProtoEnvelope(envelope) };
    }),
    ackArtifact: unary(logger, 'AckArtifact', async (req: registryV1.AckArtifactRequest, ctx) => {
      const { ack, created } = await artifacts.ack(ackInput(req), callerOf(ctx));
      return { ack: toProtoAck(ack), created };
    }),
    listDeliveryReceipts: unary(logger, 'ListDeliveryReceipts', async (req: registryV1.ListDeliveryReceiptsRequest, ctx) => {
      const { items, nextCursor } = await artifacts.listReceipts(req.artifactRef, pageRequest(req.page), callerOf(ctx));
      return { receipts: items.map(toProtoReceipt), page: { nextCursor } };
    }),
    takedownArtifact: unary(logger, 'TakedownArtifact', async (req: registryV1.TakedownArtifactRequest, ctx) => ({
      artifact: toProtoArtifact(await artifacts.takedown(req.artifactRef, req.reason, callerOf(ctx))),
    })),
    reinstateArtifact: unary(logger, 'ReinstateArtifact', async (req: registryV1.ReinstateArtifactRequest, ctx) => ({
      artifact: toProtoArtifact(await artifacts.reinstate(req.artifactRef, req.reason, callerOf(ctx))),
    })),
  };
}
