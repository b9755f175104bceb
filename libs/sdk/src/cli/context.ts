// Global options (--base-url, --token) resolved against the environment, and the client they make.
import type { Command } from 'commander';
import { isAbsolute, resolve } from 'node:path';
import { ExchangeClient } from '../client';
import type { CliIo } from './io';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';

export interface GlobalOptions {
  baseUrl: string;
  token: string | undefined;
}

export function globalOptions(command: Command, io: CliIo): GlobalOptions {
  const opts = command.optsWithGlobals<{ baseUrl?: string; token?: string }>();
  return {
    baseUrl: opts.baseUrl ?? io.env['EXCHANGE_URL'] ?? DEFAULT_BASE_URL,
    token: opts.token ?? (io.env['EXCHANGE_OPERATOR_TOKEN'] || undefined),
  };
}

export function clientFor(command: Command, io: CliIo): ExchangeClient {
  const { baseUrl, token } = globalOptions(command, io);
  return new ExchangeClient({ baseUrl, operatorToken: token, fetch: io.fetch });
}

export function resolvePath(io: CliIo, file: string): string {
  return isAbsolute(file) ? file : resolve(io.cwd ?? process.cwd(), file);
}
