import type { Metadata } from '@grpc/grpc-js';
import { uuidv7 } from './ids';
import type { Logger } from './logger';

/** What a handler knows about the caller, read from the gateway's gRPC metadata. */
export interface CallContext {
  requestId: string;
  traceId: string;
  /** "operator:<name>" or "agent:<agent_id>", null when the caller did not say. */
  actor: string | null;
  /** The acting agent (X-Agent-Id at the gateway). */
  agentId: string | null;
  metadata: Metadata;
  /** Child logger bound to request_id (created on first use). */
  logger: Logger;
}

export const REQUEST_ID_METADATA = 'x-request-id';
export const TRACE_ID_METADATA = 'x-trace-id';
export const ACTOR_METADATA = 'x-actor';
export const AGENT_ID_METADATA = 'x-agent-id';

function firstString(metadata: Metadata, key: string): string | null {
  const values = metadata.get(key);
  const value = values.length > 0 ? values[0] : undefined;
  return typeof value === 'string' && value !== '' ? value : null;
}

// A class rather than an object literal so the child logger is only built when a handler asks.
class MetadataCallContext implements CallContext {
  readonly requestId: string;
  readonly traceId: string;
  readonly actor: string | null;
  readonly agentId: string | null;
  private childLogger: Logger | undefined;

  constructor(
    readonly metadata: Metadata,
    private readonly baseLogger: Logger,
  ) {
    this.requestId = firstString(metadata, REQUEST_ID_METADATA) ?? `req_${uuidv7()}`;
    this.traceId = firstString(metadata, TRACE_ID_METADATA) ?? this.requestId;
    this.actor = firstString(metadata, ACTOR_METADATA);
    this.agentId = firstString(metadata, AGENT_ID_METADATA);
  }

  get logger(): Logger {
    this.childLogger ??= this.baseLogger.child({ request_id: this.requestId });
    return this.childLogger;
  }
}

export function callContextFromMetadata(metadata: Metadata, logger: Logger): CallContext {
  return new MetadataCallContext(metadata, logger);
}
