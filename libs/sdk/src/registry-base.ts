// Shared by the registry APIs (objects, artifacts, attestations): who signs, and dates on the wire.
import type { AgentCredentials, Transport } from './transport';

/** The explicit signer, else the client's agent credentials; neither is a usage error. */
export function signerOf(transport: Transport, signer: AgentCredentials | undefined, what: string): AgentCredentials {
  const credentials = signer ?? transport.options.agent;
  if (!credentials) throw new Error(`${what}: pass \`signer\` (agent id and private key) or \`signature\`, or use a client with agent credentials`);
  return credentials;
}

export const iso = (value: Date | string | undefined): string | undefined => (value instanceof Date ? value.toISOString() : value);
