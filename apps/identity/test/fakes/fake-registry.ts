import { canonicalize, generateKeyPair, sha256Hex, signCanonical, toBase64 } from '@exchange/crypto';
import { errors, startGrpcServer, unary, type CallContext, type GrpcServerHandle } from '@exchange/platform';
import { registryV1 } from '@exchange/proto';
import { testLogger } from '@exchange/testing';

// A registry over a REAL grpc-js server that implements only StoreExchangeObject, as the contract
// says: object_id = sha256 of canonical({type, payload, signer_agent_id: "exchange"}), signed with
// an exchange key, the same object again → created false.

export interface FakeRegistry {
  address: string;
  exchangePublicKey: string;
  objects: Map<string, registryV1.RegistryObject>;
  calls: { request: registryV1.StoreExchangeObjectRequest; actor: string | null; agentId: string | null }[];
  /** The next StoreExchangeObject fails UNAVAILABLE (once per call to this). */
  failNext(): void;
  stop(): Promise<void>;
}

export async function startFakeRegistry(): Promise<FakeRegistry> {
  const keys = generateKeyPair();
  const objects = new Map<string, registryV1.RegistryObject>();
  const calls: FakeRegistry['calls'] = [];
  let failures = 0;
  const implementation: Pick<registryV1.RegistryServiceServer, 'storeExchangeObject'> = {
    storeExchangeObject: unary(testLogger, 'StoreExchangeObject', async (req: registryV1.StoreExchangeObjectRequest, ctx: CallContext) => {
      calls.push({ request: req, actor: ctx.actor, agentId: ctx.agentId });
      if (failures > 0) {
        failures--;
        throw errors.unavailable('unavailable', 'registry down for the test');
      }
      const payload: unknown = JSON.parse(req.payloadJson);
      const objectId = `sha256:${sha256Hex(canonicalize({ type: req.type, payload, signer_agent_id: 'exchange' }))}`;
      const existing = objects.get(objectId);
      if (existing) return { object: existing, created: false };
      const object: registryV1.RegistryObject = {
        objectId,
        type: req.type,
        payloadJson: canonicalize(payload),
        signerAgentId: 'exchange',
        signature: signCanonical(payload, keys.privateKey),
        signerPublicKey: toBase64(keys.publicKey),
        visibility: req.visibility,
        parties: req.parties,
        tags: req.tags,
        createdAt: new Date(),
      };
      objects.set(objectId, object);
      return { object, created: true };
    }),
  };
  const handle: GrpcServerHandle = await startGrpcServer({
    name: 'exchange.registry.v1.RegistryService',
    host: '127.0.0.1',
    port: 0,
    logger: testLogger,
    register: (server) => server.addService(registryV1.RegistryServiceService, implementation as unknown as registryV1.RegistryServiceServer),
  });
  handle.setServing();
  return {
    address: `127.0.0.1:${handle.port}`,
    exchangePublicKey: toBase64(keys.publicKey),
    objects,
    calls,
    failNext: () => void failures++,
    stop: () => handle.shutdown(0),
  };
}
