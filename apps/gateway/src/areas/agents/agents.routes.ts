import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  Agent,
  AgentKeyParams,
  AgentPage,
  AgentParams,
  ChangeIdentityLevelBody,
  IdentityTransitionPage,
  ListAgentsQuery,
  PageQuery,
  ReasonBody,
  RegisterAgentBody,
} from './agents.schemas';
import { problemResponses, SECURITY } from '../../schemas/common';
import {
  agentStatusFromJson,
  agentToJson,
  identityLevelFromJson,
  nextCursorToJson,
  normalizePubkeyParam,
  transitionToJson,
} from './agent.mapper';

// The Agents area (spec §4 Agents + DESIGN §4 Identity): thin HTTP ⇄ gRPC mapping onto identity.
// Registered unwrapped with prefix /v1/agents.

const tags = ['Agents'];
const READ_ERRORS = problemResponses(400, 401, 403, 429, 503, 504);
const ONE_ERRORS = problemResponses(400, 401, 403, 404, 429, 503, 504);
const WRITE_ERRORS = problemResponses(400, 401, 403, 404, 409, 413, 415, 429, 503, 504);

const agentsRoutes: FastifyPluginAsyncTypebox = async (fastify) => {
  const { identity, agentCache, recentAgent, readAgent } = fastify;

  // Identity's answer (a change through this gateway, a read) refreshes the agent cache at once.
  const cachedAnswer = (res: { agent?: Parameters<typeof agentToJson>[0] }) => {
    if (res.agent) agentCache.put(res.agent);
    return agentToJson(res.agent);
  };

  // '' (not '/') so the path is exactly /v1/agents, as in the spec and the OpenAPI document.
  fastify.post(
    '',
    {
      config: { auth: 'operator' },
      schema: {
        tags,
        operationId: 'registerAgent',
        summary: 'Register an agent with a key ownership proof',
        description:
          'The proof is the base64 ed25519 signature of canonical JSON (legacy v1) of exactly ' +
          '`{"agent_id","primary_pubkey","proof_nonce"}` by the primary key. In sandbox only SANDBOX_UNVERIFIED may be sent. ' +
          'Errors: 400 `key_proof_failed` ("key ownership proof failed"), 409 `agent_id_exists` ("agent_id already exists"), ' +
          '409 `proof_nonce_used`, 403 `identity_level_not_allowed`.',
        security: SECURITY.operator,
        body: RegisterAgentBody,
        response: { 201: Agent, ...problemResponses(400, 401, 403, 409, 413, 415, 429, 503, 504) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const res = await identity.registerAgent(
        {
          agentId: body.agent_id,
          primaryPubkey: body.primary_pubkey,
          pubkeySet: body.pubkey_set ?? [],
          identityLevel: identityLevelFromJson(body.identity_level ?? 'SANDBOX_UNVERIFIED'),
          proofNonce: body.proof_nonce,
          proofSignature: body.proof_signature,
        },
        request.auth.callOptions,
      );
      return reply.code(201).send(cachedAnswer(res));
    },
  );

  fastify.get(
    '',
    {
      config: { auth: 'operator_or_agent' },
      schema: {
        tags,
        operationId: 'listAgents',
        summary: 'List agents, newest first',
        security: SECURITY.operator_or_agent,
        querystring: ListAgentsQuery,
        response: { 200: AgentPage, ...READ_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await identity.listAgents(
        {
          page: { limit: q.limit ?? 0, cursor: q.cursor ?? '' },
          identityLevel: identityLevelFromJson(q.identity_level),
          status: agentStatusFromJson(q.status),
        },
        request.auth.callOptions,
      );
      return { data: res.agents.map(agentToJson), next_cursor: nextCursorToJson(res.page) };
    },
  );

  fastify.get(
    '/:agent_id',
    {
      config: { auth: 'operator_or_agent' },
      schema: {
        tags,
        operationId: 'getAgent',
        summary: 'Read an agent identity',
        description:
          'Any authenticated agent may read an agent (its public keys are needed to verify its signatures). ' +
          "The gateway may answer from identity's answer of the last `AGENT_KEY_CACHE_TTL_MS` (default 2 s). A change through this gateway replaces it at once, and identity's agent events replace it on every gateway replica within milliseconds; only while those events cannot arrive is a change made elsewhere seen up to `AGENT_KEY_CACHE_TTL_MS` late.",
        security: SECURITY.operator_or_agent,
        params: AgentParams,
        response: { 200: Agent, ...ONE_ERRORS },
      },
    },
    async (request) => {
      // The hottest read: an agent cached from identity's own answer (GetAgent, a verification, a
      // change through this gateway, an identity event) within AGENT_KEY_CACHE_TTL_MS is that answer.
      const cached = recentAgent(request.params.agent_id);
      if (cached) return agentToJson(cached);
      return agentToJson(await readAgent(request.params.agent_id, request.auth.callOptions));
    },
  );

  fastify.post(
    '/:agent_id/identity_level',
    {
      config: { auth: 'operator' },
      schema: {
        tags,
        operationId: 'changeIdentityLevel',
        summary: 'Change the identity level (operator)',
        description: 'Up one step at a time, down any number of steps; anything else is 409 `invalid_state` with `current` and `wanted`.',
        security: SECURITY.operator,
        params: AgentParams,
        body: ChangeIdentityLevelBody,
        response: { 200: Agent, ...WRITE_ERRORS },
      },
    },
    async (request) => {
      const res = await identity.changeIdentityLevel(
        {
          agentId: request.params.agent_id,
          identityLevel: identityLevelFromJson(request.body.identity_level),
          reason: request.body.reason,
        },
        request.auth.callOptions,
      );
      return cachedAnswer(res);
    },
  );

  fastify.get(
    '/:agent_id/identity_transitions',
    {
      config: { auth: 'operator_or_agent', agentSelfParam: 'agent_id' },
      schema: {
        tags,
        operationId: 'listIdentityTransitions',
        summary: 'List identity level changes, newest first',
        description: 'An agent-signed request may only read its own history.',
        security: SECURITY.operator_or_agent,
        params: AgentParams,
        querystring: PageQuery,
        response: { 200: IdentityTransitionPage, ...ONE_ERRORS },
      },
    },
    async (request) => {
      const res = await identity.listIdentityTransitions(
        { agentId: request.params.agent_id, page: { limit: request.query.limit ?? 0, cursor: request.query.cursor ?? '' } },
        request.auth.callOptions,
      );
      return { data: res.transitions.map(transitionToJson), next_cursor: nextCursorToJson(res.page) };
    },
  );

  fastify.post(
    '/:agent_id/keys/:pubkey/revoke',
    {
      config: { auth: 'operator' },
      schema: {
        tags,
        operationId: 'revokeAgentKey',
        summary: 'Revoke one of the agent’s keys (operator)',
        description: 'The primary key cannot be revoked: 409 `primary_key_revocation`.',
        security: SECURITY.operator,
        params: AgentKeyParams,
        body: ReasonBody,
        response: { 200: Agent, ...WRITE_ERRORS },
      },
    },
    async (request) => {
      const res = await identity.revokeKey(
        { agentId: request.params.agent_id, pubkey: normalizePubkeyParam(request.params.pubkey), reason: request.body.reason },
        request.auth.callOptions,
      );
      return cachedAnswer(res);
    },
  );

  for (const [verb, operationId, summary, description, call] of [
    [
      'freeze',
      'freezeAgent',
      'Freeze an agent (operator)',
      'A frozen agent’s mutations fail 403 `agent_frozen`; reads still work. Freezing a frozen agent is 409 `invalid_state`.',
      identity.freezeAgent,
    ],
    ['unfreeze', 'unfreezeAgent', 'Unfreeze an agent (operator)', 'Unfreezing an active agent is 409 `invalid_state`.', identity.unfreezeAgent],
  ] as const) {
    fastify.post(
      `/:agent_id/${verb}`,
      {
        // The frozen check is skipped so that an operator can always unfreeze.
        config: { auth: 'operator', frozenCheck: false },
        schema: {
          tags,
          operationId,
          summary,
          description,
          security: SECURITY.operator,
          params: AgentParams,
          body: ReasonBody,
          response: { 200: Agent, ...WRITE_ERRORS },
        },
      },
      async (request) =>
        cachedAnswer(await call({ agentId: request.params.agent_id, reason: request.body.reason }, request.auth.callOptions)),
    );
  }
};

export default agentsRoutes;
