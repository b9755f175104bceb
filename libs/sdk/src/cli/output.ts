// Results go to stdout as JSON; problems go to stderr as readable lines.
import { ExchangeApiError, ExchangeNetworkError } from '../errors';
import type { CliIo } from './io';

export function printJson(io: CliIo, value: unknown): void {
  io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}

/** A failure the CLI detects itself (bad flag value, unreadable key file); exit code 1 unless given. */
export class CliUsageError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliUsageError';
  }
}

/** Ends the command with this exit code after it printed its own result (e.g. an INVALID verdict). */
export class CliExit extends Error {
  constructor(readonly exitCode: number) {
    super(`exit ${exitCode}`);
    this.name = 'CliExit';
  }
}

export function printError(io: CliIo, err: unknown): void {
  if (err instanceof ExchangeApiError) {
    const lines = [
      `error: ${err.code}: ${err.detail || err.title}`,
      `  status: ${err.status} ${err.title}`,
      `  request_id: ${err.requestId ?? '-'}`,
      ...err.errors.map((e) => `  ${e.pointer || '/'}: ${e.message}`),
    ];
    if (err.details) lines.push(`  details: ${JSON.stringify(err.details)}`);
    if (err.retryAfter !== null) lines.push(`  retry_after: ${err.retryAfter}s`);
    if (err.idempotencyKey !== undefined) lines.push(`  idempotency_key: ${err.idempotencyKey}`);
    io.stderr(`${lines.join('\n')}\n`);
  } else if (err instanceof ExchangeNetworkError) {
    const retry = err.idempotencyKey === undefined ? '' : `\n  idempotency_key: ${err.idempotencyKey} (retry with --idempotency-key)`;
    io.stderr(`error: ${err.code}: ${err.message}${retry}\n`);
  } else if (err instanceof CliUsageError) {
    io.stderr(`error: ${err.code}: ${err.message}\n`);
  } else {
    io.stderr(`error: ${err instanceof Error ? err.message : String(err)}\n`);
  }
}
