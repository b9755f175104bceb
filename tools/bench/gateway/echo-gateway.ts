import * as grpc from '@grpc/grpc-js';
import Fastify from 'fastify';

// Baseline (b), client side: Fastify making one unary gRPC call per request over one shared
// channel — the floor the gateway → service design imposes.
const HealthClient = grpc.makeGenericClientConstructor(
  {
    check: {
      path: '/grpc.health.v1.Health/Check',
      requestStream: false,
      responseStream: false,
      // HealthCheckRequest{service:""} encodes to zero bytes; the reply is read as raw bytes.
      requestSerialize: () => Buffer.alloc(0),
      requestDeserialize: (b: Buffer) => b,
      responseSerialize: (b: Buffer) => b,
      responseDeserialize: (b: Buffer) => ({ status: b.length > 1 ? b[1] : 0 }),
    },
  },
  'Health',
);
const client = new HealthClient(`127.0.0.1:${process.env.GRPC_PORT}`, grpc.credentials.createInsecure()) as unknown as grpc.Client & {
  check(req: unknown, opts: grpc.CallOptions, cb: (err: grpc.ServiceError | null, res: { status: number }) => void): void;
};
const app = Fastify({ logger: false });
app.get('/', () =>
  new Promise((res, rej) =>
    client.check({}, { deadline: Date.now() + 5000 }, (err, reply) => (err ? rej(err) : res({ status: reply.status }))),
  ),
);
app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' }).then(() => process.send?.('ready'));
