import * as grpc from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';

// Baseline (b), server side: a separate process answering one unary gRPC call (health Check).
const server = new grpc.Server();
new HealthImplementation({ '': 'SERVING' }).addToServer(server);
server.bindAsync(`127.0.0.1:${process.env.GRPC_PORT}`, grpc.ServerCredentials.createInsecure(), (err) => {
  if (err) throw err;
  process.send?.('ready');
});
