import type { FastifyPluginAsync } from 'fastify';
import balanceRoutes from './balance';
import depositsRoutes from './deposits';
import faucetRoutes from './faucet';
import holdsRoutes from './holds';
import payoutDestinationsRoutes from './payout-destinations';
import transferRoutes from './transfer';
import withdrawalsRoutes from './withdrawals';

// The Wallets area (spec §4 Wallets + DESIGN §4 Wallet-ledger): thin HTTP ⇄ gRPC mapping onto
// wallet-ledger. Registered with prefix /v1/wallets/:agent_id; one file per resource.

const walletsRoutes: FastifyPluginAsync = async (fastify) => {
  await fastify.register(balanceRoutes);
  await fastify.register(faucetRoutes);
  await fastify.register(transferRoutes);
  await fastify.register(holdsRoutes);
  await fastify.register(depositsRoutes);
  await fastify.register(payoutDestinationsRoutes);
  await fastify.register(withdrawalsRoutes);
};

export default walletsRoutes;
