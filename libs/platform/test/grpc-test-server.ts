import type { ServiceError } from '@grpc/grpc-js';
// A test-only dependency on the generated code: the adapter and client are proven against a real
// ts-proto service definition rather than a hand-written one.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { identityV1 } from '@exchange/proto';
import { Writable } from 'node:stream';
import { createLogger, errors, startGrpcServer, unary, type CallContext } from '../src';

// What the gRPC specs share: a log capture, a tiny IdentityService whose getAgent behaviour is
// chosen by the requested agent id, and small async helpers.

export type Line = Record<string, unknown>;

export function captureLogger() {
  const lines: Line[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: createLogger({ name: 'grpc-spec', level: 'debug', destination }) };
}

export function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

export async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!condition()) throw new Error('condition never became true');
}

export async function rejection(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (err) {
    return err as ServiceError;
  }
  throw new Error('expected the call to fail');
}

export const SECRET_TEXT = 'password=hunter2 in SELECT * FROM agents';
export const HOSTILE = 'é ١٢ 🚀 a\u0000b \ud800';

export function agent(agentId: string): identityV1.Agent {
  return {
    agentId,
    primaryPubkey: 'pk',
    keys: [],
    identityLevel: identityV1.IdentityLevel.IDENTITY_LEVEL_SANDBOX_UNVERIFIED,
    status: identityV1.AgentStatus.AGENT_STATUS_ACTIVE,
    createdAt: new Date('2026-11-21T18:00:00.000Z'),
    updatedAt: new Date('2026-11-21T18:00:00.000Z'),
  };
}

/** A tiny IdentityService: getAgent's behaviour is chosen by the requested agent id. */
export function startTestServer(logger: ReturnType<typeof createLogger>) {
  const seen: CallContext[] = [];
  let gate = deferred();
  let entered = deferred();
  const getAgent = (req: identityV1.GetAgentRequest, ctx: CallContext): Promise<identityV1.GetAgentResponse> => {
    seen.push(ctx);
    switch (req.agentId) {
      case 'missing':
        throw errors.notFound('agent', 'missing');
      case 'frozen':
        return Promise.reject(errors.invalidState('agent', 'frozen', 'frozen'));
      case 'replayed':
        return Promise.reject(errors.invalidState('agent', 'frozen', 'frozen').asReplay());
      case 'boom':
        return Promise.reject(new Error(SECRET_TEXT));
      case 'hostile':
        // Details and message echoing what a client sent: non-ASCII, RTL digits, emoji, NUL, a lone surrogate.
        return Promise.reject(
          errors.invalidArgument(`amount_invalid${HOSTILE}`, `amount ${HOSTILE} is not a decimal`, { field: 'amount', value: HOSTILE }),
        );
      case 'unencodable':
        // A response grpc-js cannot serialize (a string where the proto wants an enum number).
        return Promise.resolve({ agent: { ...agent('unencodable'), identityLevel: 'é' as unknown as identityV1.IdentityLevel } });
      case 'slow':
        entered.resolve();
        return gate.promise.then(() => ({ agent: agent('slow') }));
      default:
        return Promise.resolve({ agent: agent(req.agentId) });
    }
  };
  // Only getAgent is implemented; grpc-js answers UNIMPLEMENTED for the rest.
  const implementation: Pick<identityV1.IdentityServiceServer, 'getAgent'> = {
    getAgent: unary(logger, 'GetAgent', getAgent),
  };
  const handle = startGrpcServer({
    name: 'exchange.identity.v1.IdentityService',
    host: '127.0.0.1',
    port: 0,
    logger,
    register: (server) => server.addService(identityV1.IdentityServiceService, implementation as unknown as identityV1.IdentityServiceServer),
  });
  return {
    handle,
    seen,
    release: () => gate.resolve(),
    entered: () => entered.promise,
    reset: () => {
      gate = deferred();
      entered = deferred();
    },
  };
}
