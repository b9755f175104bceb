import { canonicalize, fromBase64, generateKeyPair, registrationProofPayload, sha256Hex, signCanonical, toBase64, verify, verifyCanonical } from '@exchange/crypto';
import { errors } from '@exchange/platform';
import { identityV1 } from '@exchange/proto';
import { answerGetAgents, startProtoFake, type ProtoFake } from '@exchange/testing';

// A small in-memory identity: `startProtoFake` (a real grpc-js server from the proto definition,
// so gateway tests exercise the real channel, metadata and error trailers) with identity's rules
// for the methods the gateway calls, following DESIGN §4 Identity closely enough for the gateway's
// mapping tests; the real service has its own suite.

const { IdentityLevel, AgentStatus, KeyStatus } = identityV1;
const LEVEL_ORDER = [
  IdentityLevel.IDENTITY_LEVEL_SANDBOX_UNVERIFIED,
  IdentityLevel.IDENTITY_LEVEL_MAINNET_BASIC,
  IdentityLevel.IDENTITY_LEVEL_MAINNET_ATTESTED,
  IdentityLevel.IDENTITY_LEVEL_MAINNET_VERIFIED,
  IdentityLevel.IDENTITY_LEVEL_MAINNET_INSTITUTIONAL,
];
const levelName = (l: identityV1.IdentityLevel) => IdentityLevel[l]!.replace('IDENTITY_LEVEL_', '');

export interface FakeIdentity extends ProtoFake {
  agents: Map<string, identityV1.Agent>;
  /** Minted party aliases, "<contract_id>|<role>" → {alias, agentId}. */
  aliases: Map<string, { alias: string; agentId: string }>;
  /** Key the fake signs alias tokens and reveals with (base64). */
  exchangePublicKey: string;
}

function cursorOf(index: number): string {
  return Buffer.from(`i:${index}`).toString('base64url');
}

function indexOf(cursor: string): number {
  const match = /^i:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw errors.invalidArgument('invalid_cursor', 'cursor is not valid');
  return Number(match[1]);
}

function page<T>(rows: T[], req: identityV1.ListAgentsRequest['page']): { data: T[]; next: string } {
  const limit = req?.limit || 50;
  if (limit < 1 || limit > 200) throw errors.invalidArgument('invalid_limit', 'limit must be 1-200');
  const start = req?.cursor ? indexOf(req.cursor) : 0;
  const data = rows.slice(start, start + limit);
  return { data, next: start + limit < rows.length ? cursorOf(start + limit) : '' };
}

export async function startFakeIdentity(opts: { environment?: 'sandbox' | 'mainnet'; serving?: boolean } = {}): Promise<FakeIdentity> {
  const environment = opts.environment ?? 'sandbox';
  const agents = new Map<string, identityV1.Agent>();
  const order: string[] = []; // newest first
  const transitions = new Map<string, identityV1.IdentityTransition[]>();
  const nonces = new Set<string>();
  let seq = 0;

  const find = (agentId: string) => {
    const agent = agents.get(agentId);
    if (!agent) throw errors.notFound('agent', agentId);
    return agent;
  };
  const touch = (agent: identityV1.Agent) => {
    // Every change moves updatedAt forward, as identity's does (registrations are stamped ahead).
    agent.updatedAt = new Date(Math.max(Date.now(), (agent.updatedAt?.getTime() ?? 0) + 1));
    return structuredClone(agent);
  };

  const exchangeKeys = generateKeyPair();
  const aliases = new Map<string, { alias: string; agentId: string }>();
  const minted = new Set<string>();
  const exchangeObject = (type: string, payload: Record<string, unknown>) => {
    const objectId = `sha256:${sha256Hex(canonicalize({ type, payload, signer_agent_id: 'exchange' }))}`;
    const created = !minted.has(objectId);
    minted.add(objectId);
    return { objectId, payloadJson: canonicalize(payload), signature: signCanonical(payload, exchangeKeys.privateKey), created };
  };

  const fake = await startProtoFake(identityV1.IdentityServiceService, {
    async registerAgent(req: identityV1.RegisterAgentRequest) {
      const proofOk = verifyCanonical(
        registrationProofPayload({ agent_id: req.agentId, primary_pubkey: req.primaryPubkey, proof_nonce: req.proofNonce }),
        req.proofSignature,
        req.primaryPubkey,
      );
      if (!proofOk) throw errors.invalidArgument('key_proof_failed', 'key ownership proof failed');
      if (agents.has(req.agentId)) throw errors.alreadyExists('agent_id_exists', 'agent_id already exists');
      if (nonces.has(req.proofNonce)) throw errors.alreadyExists('proof_nonce_used', 'proof_nonce was already used');
      if (environment === 'sandbox' && req.identityLevel !== IdentityLevel.IDENTITY_LEVEL_SANDBOX_UNVERIFIED) {
        throw errors.permissionDenied('identity_level_not_allowed', 'only SANDBOX_UNVERIFIED may be registered in sandbox');
      }
      // Like the service: a public key belongs to at most one agent.
      const bound = [req.primaryPubkey, ...req.pubkeySet].find((key) => [...agents.values()].some((a) => a.keys.some((k) => k.pubkey === key)));
      if (bound) throw errors.alreadyExists('pubkey_in_use', `public key ${bound} belongs to another agent`);
      nonces.add(req.proofNonce);
      const now = new Date(Date.now() + seq++); // strictly increasing for newest-first order
      const agent: identityV1.Agent = {
        agentId: req.agentId,
        primaryPubkey: req.primaryPubkey,
        keys: [req.primaryPubkey, ...req.pubkeySet].map((pubkey, i) => ({
          pubkey, primary: i === 0, status: KeyStatus.KEY_STATUS_ACTIVE, addedAt: now,
        })),
        identityLevel: req.identityLevel,
        status: AgentStatus.AGENT_STATUS_ACTIVE,
        createdAt: now,
        updatedAt: now,
      };
      agents.set(agent.agentId, agent);
      order.unshift(agent.agentId);
      return { agent: structuredClone(agent) };
    },
    async getAgent(req: identityV1.GetAgentRequest) {
      return { agent: structuredClone(find(req.agentId)) };
    },
    // As identity, by the rules every fake shares: at most 1000 ids, each agent once, unknown ids absent.
    async getAgents(req: identityV1.GetAgentsRequest) {
      return { agents: structuredClone(answerGetAgents(req.agentIds, (id) => agents.get(id))) };
    },
    async listAgents(req: identityV1.ListAgentsRequest) {
      const rows = order
        .map((id) => agents.get(id)!)
        .filter((a) => req.identityLevel === IdentityLevel.IDENTITY_LEVEL_UNSPECIFIED || a.identityLevel === req.identityLevel)
        .filter((a) => req.status === AgentStatus.AGENT_STATUS_UNSPECIFIED || a.status === req.status);
      const { data, next } = page(rows, req.page);
      return { agents: structuredClone(data), page: { nextCursor: next } };
    },
    async changeIdentityLevel(req: identityV1.ChangeIdentityLevelRequest, ctx) {
      const agent = find(req.agentId);
      const from = LEVEL_ORDER.indexOf(agent.identityLevel);
      const to = LEVEL_ORDER.indexOf(req.identityLevel);
      if (to < 0 || to === from || to > from + 1) {
        throw errors.invalidState('agent', levelName(agent.identityLevel), levelName(req.identityLevel));
      }
      const transition: identityV1.IdentityTransition = {
        transitionId: `itr_${++seq}`, agentId: agent.agentId, fromLevel: agent.identityLevel, toLevel: req.identityLevel,
        reason: req.reason, actor: ctx.actor ?? 'unknown', createdAt: new Date(),
      };
      agent.identityLevel = req.identityLevel;
      transitions.set(agent.agentId, [transition, ...(transitions.get(agent.agentId) ?? [])]);
      return { agent: touch(agent), transition };
    },
    async listIdentityTransitions(req: identityV1.ListIdentityTransitionsRequest) {
      find(req.agentId);
      const { data, next } = page(transitions.get(req.agentId) ?? [], req.page);
      return { transitions: data, page: { nextCursor: next } };
    },
    async revokeKey(req: identityV1.RevokeKeyRequest) {
      const agent = find(req.agentId);
      const key = agent.keys.find((k) => k.pubkey === req.pubkey);
      if (!key) throw errors.notFound('key', req.pubkey);
      if (key.primary) throw errors.failedPrecondition('primary_key_revocation', 'the primary key cannot be revoked');
      if (key.status === KeyStatus.KEY_STATUS_REVOKED) throw errors.invalidState('key', 'revoked', 'revoked');
      key.status = KeyStatus.KEY_STATUS_REVOKED;
      key.revokedAt = new Date();
      key.revokedReason = req.reason;
      return { agent: touch(agent) };
    },
    async freezeAgent(req: identityV1.FreezeAgentRequest) {
      const agent = find(req.agentId);
      if (agent.status === AgentStatus.AGENT_STATUS_FROZEN) throw errors.invalidState('agent', 'frozen', 'frozen');
      agent.status = AgentStatus.AGENT_STATUS_FROZEN;
      agent.frozenReason = req.reason;
      return { agent: touch(agent) };
    },
    async unfreezeAgent(req: identityV1.UnfreezeAgentRequest) {
      const agent = find(req.agentId);
      if (agent.status !== AgentStatus.AGENT_STATUS_FROZEN) throw errors.invalidState('agent', 'active', 'active');
      agent.status = AgentStatus.AGENT_STATUS_ACTIVE;
      delete agent.frozenReason;
      return { agent: touch(agent) };
    },
    // MintPartyAlias / MintIdentityReveal as identity answers them (the registry is not involved).
    async mintPartyAlias(req: identityV1.MintPartyAliasRequest) {
      const role = req.role === identityV1.PartyRole.PARTY_ROLE_BUYER ? 'buyer' : req.role === identityV1.PartyRole.PARTY_ROLE_SELLER ? 'seller' : null;
      if (role === null) throw errors.invalidArgument('validation_failed', 'role must be buyer or seller');
      const key = `${req.contractId}|${role}`;
      const entry = aliases.get(key) ?? { alias: `anon:${String(++seq).padStart(12, 'a').replace(/[^a-z2-7]/g, 'q')}`, agentId: req.agentId };
      aliases.set(key, entry);
      return { alias: entry.alias, ...exchangeObject('party_alias_token', { alias: entry.alias, contract_id: req.contractId, role }) };
    },
    async mintIdentityReveal(req: identityV1.MintIdentityRevealRequest, ctx) {
      const found = [...aliases.entries()].find(([key, v]) => v.alias === req.alias && key.startsWith(`${req.contractId}|`));
      if (!found) throw errors.notFound('alias', req.alias);
      const operator = ctx.agentId === null && (ctx.actor?.startsWith('operator:') ?? false);
      const acting = ctx.agentId ?? (ctx.actor?.startsWith('agent:') ? ctx.actor.slice('agent:'.length) : null);
      if (!operator && acting !== found[1].agentId) throw errors.permissionDenied('not_alias_owner', 'only the aliased agent or the operator');
      return exchangeObject('identity_reveal', { alias: req.alias, agent_id: found[1].agentId, contract_id: req.contractId, reveal_to: req.revealTo });
    },
    async verifyAgentSignature(req: identityV1.VerifyAgentSignatureRequest) {
      const agent = agents.get(req.agentId);
      if (!agent) return { valid: false, pubkey: '', agent: undefined };
      let signature: Uint8Array;
      try {
        signature = fromBase64(req.signature);
      } catch {
        return { valid: false, pubkey: '', agent: structuredClone(agent) };
      }
      for (const key of agent.keys) {
        if (key.status !== KeyStatus.KEY_STATUS_ACTIVE) continue;
        if (verify(signature, new Uint8Array(req.message), fromBase64(key.pubkey))) {
          return { valid: true, pubkey: key.pubkey, agent: structuredClone(agent) };
        }
      }
      return { valid: false, pubkey: '', agent: structuredClone(agent) };
    },
  }, { serving: opts.serving });

  return Object.assign(fake, { agents, aliases, exchangePublicKey: toBase64(exchangeKeys.publicKey) });
}
