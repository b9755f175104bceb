import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { problem } from '../../plugins/app/problem';
import { problemResponses, SECURITY } from '../../schemas/common';
import { Receipt } from './receipts.schemas';
import { ReceiptParams } from '../wallets/wallets.schemas';
import { receiptToJson } from '../wallets/wallet.mapper';

// GET /v1/receipts/{receipt_id}: a settlement or refund receipt as the exchange signed it.
// Readable by an operator or by an agent-signed request of the payer or the payee. Registered
// unwrapped with prefix /v1/receipts.

const receiptsRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { walletLedger } = fastify;
  fastify.get(
    '/:receipt_id',
    {
      config: { auth: 'operator_or_agent' },
      schema: {
        tags: ['Receipts'],
        operationId: 'getReceipt',
        summary: 'Read a settlement receipt',
        description:
          'The receipt exactly as signed: `signature` is base64 ed25519 by the exchange key (`signer_public_key`, also ' +
          'published by /health) over canonical JSON (legacy v1) of the object without `signature`. Operators read any ' +
          'receipt; an agent-signed request only one where it is the payer or the payee (else 403 `forbidden`).',
        security: SECURITY.operator_or_agent,
        params: ReceiptParams,
        response: { 200: Receipt, ...problemResponses(400, 401, 403, 404, 429, 503, 504) },
      },
    },
    async (request) => {
      const res = await walletLedger.getReceipt({ receiptId: request.params.receipt_id, contractId: '' }, request.auth.callOptions);
      const receipt = receiptToJson(res.receipt);
      const auth = request.auth;
      if (auth.kind === 'agent' && auth.actingAgentId !== receipt.payer && auth.actingAgentId !== receipt.payee) {
        throw problem(403, 'forbidden', 'only the payer, the payee or an operator may read this receipt');
      }
      return receipt;
    },
  );
};

export default receiptsRoutes;
