import { sha256Hex } from '@exchange/crypto';
import { registryV1 } from '@exchange/proto';
import { randomBytes } from 'node:crypto';
import { operator, signedRequest, useHarnessWithAgents, type Harness, type TestAgent } from './harness';

// The registry specs' shared setup: one harness per spec file (fake identity, market and registry
// behind the gateway), three registered agents (carol party to nothing), and the request helpers
// (signed, operator, anonymous, multipart).

export const R = registryV1;
export let h: Harness;
export let alice: TestAgent;
export let bob: TestAgent;
/** Registered, party to nothing: what "any authenticated agent" may read (issue 13: reads need credentials). */
export let carol: TestAgent;
export const SIG = 'q3b1xB2p6oX0rVd8mW4m3z5cYVZ0k8w5Jm9T2Kc1cYb3oQm0d3n6eWfV3u2Hc1hY3l6r8wqQ0n2Xb8Qw3r5aAw==';
export const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

export const signed = (agent: TestAgent, method: 'GET' | 'POST', url: string, body?: unknown) => signedRequest(h.app, agent, method, url, body);
export const asOperator = (method: 'GET' | 'POST', url: string, payload?: unknown, extra: Record<string, string> = {}) =>
  h.app.inject({ method, url, headers: operator(extra), ...(payload === undefined ? {} : { payload: payload as object }) });
export const anonymous = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
  h.app.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }) });

/** A multipart/form-data body: fields in order, then (optionally) the file part. */
export function form(fields: Array<[string, string]>, file?: { name?: string; bytes: Buffer; type?: string }, fieldsAfter: Array<[string, string]> = []) {
  const boundary = `----exchange${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  const field = ([name, value]: [string, string]) =>
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  fields.forEach(field);
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.name ?? 'file'}"; filename="data.bin"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  fieldsAfter.forEach(field);
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

export function signedMultipart(agent: TestAgent, url: string, f: { body: Buffer; contentType: string }, signedBody: Buffer = f.body) {
  // The raw bytes are signed (signedHeaders hashes them as given).
  const headers = agent.signedHeaders('POST', url, signedBody);
  return h.app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': f.contentType }, payload: f.body });
}

export const refOf = (bytes: Buffer) => `sha256:${sha256Hex(bytes)}`;

/** Registers the harness hooks of the calling spec file (one harness per file). */
export function useRegistryHarness(): void {
  useHarnessWithAgents(['alice', 'bob', 'carol'], (started, agents) => {
    h = started;
    [alice, bob, carol] = agents as [TestAgent, TestAgent, TestAgent];
  });
}
