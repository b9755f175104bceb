// Global options (--base-url, --token) resolved against the environment, and the client they make.
import type { Command } from 'commander';
import { isAbsolute, resolve } from 'node:path';
import { ExchangeClient } from '../client';
import type { CliIo } from './io';
import { readKeyFile } from './key-file';
import { CliUsageError } from './output';

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

/** `--key <file>` / `--as <agent_id>`: the agent-signed mode of agent commands. */
export interface SignAsOptions {
  key?: string;
  as?: string;
}

export const KEY_OPTION = ['--key <file>', 'sign the request as the agent with this key file (else the operator token is used)'] as const;
export const AS_OPTION = ['--as <agent_id>', 'with --key: the agent the key belongs to (env EXCHANGE_AGENT_ID; default: the <agent_id> argument)'] as const;

/**
 * The client of an agent command: with `--key`, every request is signed as that agent (fresh
 * nonce per request, as the SDK does); otherwise the operator token.
 */
export async function agentOrOperatorClient(command: Command, io: CliIo, opts: SignAsOptions, defaultAgentId?: string): Promise<ExchangeClient> {
  const { baseUrl, token } = globalOptions(command, io);
  if (opts.key === undefined) return new ExchangeClient({ baseUrl, operatorToken: token, fetch: io.fetch });
  const agentId = opts.as ?? (io.env['EXCHANGE_AGENT_ID'] || undefined) ?? defaultAgentId;
  if (agentId === undefined) throw new CliUsageError('agent_id_required', '--key needs the signing agent: --as <agent_id> (or EXCHANGE_AGENT_ID)');
  const keys = await readKeyFile(resolvePath(io, opts.key));
  return new ExchangeClient({ baseUrl, agent: { agentId, privateKey: keys.privateKey }, fetch: io.fetch });
}

/** Operator-only commands fail locally, without a request, when no token is configured. */
export function operatorClient(command: Command, io: CliIo, what: string): ExchangeClient {
  if (globalOptions(command, io).token === undefined) {
    throw new CliUsageError('operator_token_required', `${what} needs the operator token (--token or EXCHANGE_OPERATOR_TOKEN)`);
  }
  return clientFor(command, io);
}
