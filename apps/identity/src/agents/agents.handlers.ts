import { unary, type Logger } from '@exchange/platform';
import type { identityV1 } from '@exchange/proto';
import type { AgentService } from './agents.service';
import {
  fromProtoLevel,
  fromProtoStatus,
  pageInfo,
  pageQuery,
  toProtoAgent,
  toProtoTransition,
} from './agents.mapper';

export type AgentsRpcs = Pick<
  identityV1.IdentityServiceServer,
  | 'registerAgent'
  | 'getAgent'
  | 'getAgents'
  | 'listAgents'
  | 'changeIdentityLevel'
  | 'listIdentityTransitions'
  | 'revokeKey'
  | 'freezeAgent'
  | 'unfreezeAgent'
  | 'verifyAgentSignature'
>;

/** proto → domain → proto around AgentService; errors and logging live in platform's `unary`. */
export function agentsHandlers(service: AgentService, logger: Logger): AgentsRpcs {
  return {
    registerAgent: unary(logger, 'RegisterAgent', async (req: identityV1.RegisterAgentRequest, ctx) => ({
      agent: toProtoAgent(
        await service.register(
          {
            agentId: req.agentId,
            primaryPubkey: req.primaryPubkey,
            pubkeySet: req.pubkeySet,
            identityLevel: fromProtoLevel(req.identityLevel),
            proofNonce: req.proofNonce,
            proofSignature: req.proofSignature,
          },
          ctx,
        ),
      ),
    })),

    getAgent: unary(logger, 'GetAgent', async (req: identityV1.GetAgentRequest) => ({
      agent: toProtoAgent(await service.get(req.agentId)),
    })),

    getAgents: unary(logger, 'GetAgents', async (req: identityV1.GetAgentsRequest) => ({
      agents: (await service.getMany(req.agentIds)).map(toProtoAgent),
    })),

    listAgents: unary(logger, 'ListAgents', async (req: identityV1.ListAgentsRequest) => {
      const page = await service.list(pageQuery(req.page), {
        identityLevel: fromProtoLevel(req.identityLevel),
        status: fromProtoStatus(req.status),
      });
      return { agents: page.data.map(toProtoAgent), page: pageInfo(page.nextCursor) };
    }),

    changeIdentityLevel: unary(logger, 'ChangeIdentityLevel', async (req: identityV1.ChangeIdentityLevelRequest, ctx) => {
      const { agent, transition } = await service.changeLevel(req.agentId, fromProtoLevel(req.identityLevel), req.reason, ctx);
      return { agent: toProtoAgent(agent), transition: toProtoTransition(transition) };
    }),

    listIdentityTransitions: unary(logger, 'ListIdentityTransitions', async (req: identityV1.ListIdentityTransitionsRequest) => {
      const page = await service.listTransitions(req.agentId, pageQuery(req.page));
      return { transitions: page.data.map(toProtoTransition), page: pageInfo(page.nextCursor) };
    }),

    revokeKey: unary(logger, 'RevokeKey', async (req: identityV1.RevokeKeyRequest, ctx) => ({
      agent: toProtoAgent(await service.revokeKey(req.agentId, req.pubkey, req.reason, ctx)),
    })),

    freezeAgent: unary(logger, 'FreezeAgent', async (req: identityV1.FreezeAgentRequest, ctx) => ({
      agent: toProtoAgent(await service.freeze(req.agentId, req.reason, ctx)),
    })),

    unfreezeAgent: unary(logger, 'UnfreezeAgent', async (req: identityV1.UnfreezeAgentRequest, ctx) => ({
      agent: toProtoAgent(await service.unfreeze(req.agentId, req.reason, ctx)),
    })),

    verifyAgentSignature: unary(logger, 'VerifyAgentSignature', async (req: identityV1.VerifyAgentSignatureRequest) => {
      const check = await service.verifySignature(req.agentId, req.message, req.signature);
      return { valid: check.valid, pubkey: check.pubkey, agent: check.agent ? toProtoAgent(check.agent) : undefined };
    }),
  };
}
