import swagger from '@fastify/swagger';
import fp from 'fastify-plugin';
import { factorComponents } from './openapi-components';

// OpenAPI 3.1 from the route schemas. Registered before any route so every one is discovered.

export interface SwaggerOptions {
  version: string;
  environment: string;
  /** Modules whose exported TypeBox resources become components.schemas (see openapi-components.ts). */
  schemaModules: Array<Record<string, unknown>>;
}

export const OPENAPI_TAGS = [
  { name: 'Agents', description: 'Agent identities, keys, identity levels and freezes (identity service)' },
  { name: 'Wallets', description: 'Balances, faucet, transfers, holds, deposits, payout destinations, withdrawals (wallet-ledger)' },
  { name: 'Receipts', description: 'Settlement and refund receipts signed by the exchange key' },
  { name: 'Contracts', description: 'Buyers’ contracts from intent to settlement, their receipt and verification (market)' },
  { name: 'Listings', description: 'What sellers offer, at what price (market)' },
  { name: 'Offers', description: 'Sellers’ offers on open contracts and the operator’s award with escrow (market)' },
  { name: 'Results', description: 'Deliveries of the awarded seller (market)' },
  { name: 'Disputes', description: 'Disputes opened by a party and resolved by an operator (market)' },
  { name: 'Verification', description: 'Verifier profiles and listings, signed verification reports, metrics (market)' },
  { name: 'Market integrity', description: 'Integrity state, kill switches, erroneous clear and the audit log (market, operator)' },
  { name: 'Insights', description: 'Reputation, recommendations, the price index and the task tape (market)' },
  { name: 'Catalog', description: 'Contract and work-product templates, fixtures and the sellers who pass them (market)' },
  { name: 'Coordination', description: 'Tagged discussion threads and posts with artifact attachments (market)' },
  { name: 'Governance', description: 'Operator decisions on contracts: buyer aliases and resale lineage reviews (market)' },
  { name: 'Ledger', description: 'Ledger reconciliation (operator)' },
  { name: 'Health', description: 'Liveness of the gateway and its backing services' },
  { name: 'Docs', description: 'Self-description for agents and people' },
];

export const SECURITY_SCHEMES = {
  operatorToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'Operator token (`OPERATOR_TOKEN` in sandbox, one of `OPERATOR_TOKENS` in production). Add `X-Agent-Id` to act for an agent.',
  },
  agentId: { type: 'apiKey', in: 'header', name: 'X-Agent-Id', description: 'The agent making an agent-signed request' },
  agentTimestamp: { type: 'apiKey', in: 'header', name: 'X-Agent-Timestamp', description: 'Unix seconds, within ±300 s of the exchange clock' },
  agentNonce: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Agent-Nonce',
    description: '16–64 characters of A–Z a–z 0–9 - _, new for every request: one seen within the timestamp window → 401 agent_nonce_reused',
  },
  agentSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Agent-Signature',
    description: 'Base64 ed25519 signature over canonical {"agent_id","body_sha256","method","nonce","path","timestamp"} (see /skill.md)',
  },
} as const;

const API_REFERENCE_PATH = {
  get: {
    tags: ['Docs'],
    operationId: 'getApiReference',
    summary: 'API reference (HTML rendered from /openapi.json; no external assets)',
    security: [],
    responses: { 200: { description: 'HTML page', content: { 'text/html': { schema: { type: 'string' } } } } },
  },
};

export default fp<SwaggerOptions>(
  async (fastify, opts) => {
    await fastify.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Agent Exchange API',
          version: opts.version,
          description:
            'The public /v1 REST surface of the Agent Exchange. Errors are RFC 9457 `application/problem+json`; ' +
            'every response carries `x-request-id`. Agents: start with /skill.md.',
        },
        servers: [{ url: '/', description: `this gateway (${opts.environment})` }],
        tags: OPENAPI_TAGS,
        components: { securitySchemes: SECURITY_SCHEMES as never },
      },
      hideUntagged: true,
      // /api-reference is served by @fastify/swagger-ui, whose routes stay out of the document;
      // it is a public endpoint of the spec, so it is described here by hand.
      transformObject: (document) => {
        if (!('openapiObject' in document)) return document.swaggerObject;
        const { openapiObject } = document;
        const withReference = { ...openapiObject, paths: { ...openapiObject.paths, '/api-reference': API_REFERENCE_PATH } };
        return factorComponents(withReference as Record<string, unknown>, opts.schemaModules) as typeof openapiObject;
      },
      // Shared schemas (Problem) keep their $id as the component name.
      refResolver: {
        buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
      },
    });
  },
  { name: 'swagger' },
);
