// Bodies that carry a signature over their own content (a registration proof, a signed object):
// no schema or example can produce a valid one, so the SDK signs them, with generated content.
// A correctly signed object whose payload is hostile reaches the registry, not just the gateway.
// (Workflow bodies that name the acting agent's own run and events, and new contracts of the
// acting agent, are picked here too.)
import { buildRegistrationBody, generateAgentKeys, IDENTITY_LEVELS, signObjectPayload } from '@exchange/sdk';
import fc from 'fast-check';
import { caseBody, caseUpdateBody, checkoutBody, feedbackBody, mandateBody } from './commerce-bodies';
import { contractBody, disputeBody, offerBody, resultBody, verificationBody } from './contract-bodies';
import type { CommerceContext } from './commerce-fixtures';
import type { Pools } from './id-pools';
import { casefileExportBody, emitBody, ingestBody, projectionBody, proxyCallBody } from './metering-bodies';
import type { MeteringContext } from './metering-fixtures';
import type { Operation } from './openapi';
import { targetsFor, targetValue, type OpTargets } from './op-targets';
import { ackBody, revealBody } from './registry-bodies';
import { consumeHoldBody } from './wallet-bodies';
import { consumeBody, runBody, subscriptionBody } from './workflow-bodies';

export interface SigningContext {
  /** Private keys of the signing agents, by agent id. */
  signingKeys: ReadonlyMap<string, Uint8Array>;
  /** Mandates per signing agent and the sandbox merchant, when setup made them. */
  commerce?: CommerceContext;
  /** Expiry dates are placed after this instant. */
  now: number;
  /** Per signing agent, the ids it may act on (its workflow runs and events…). */
  actorPools?: ReadonlyMap<string, Pools>;
  /** The epoch, periods and billable agents setup made (metering and billing bodies). */
  metering?: MeteringContext;
  /** Real agent ids (billing bodies name one). */
  agents?: string[];
  /** Per operation, ids that reach a 2xx together (a verification's result with its contract…). */
  targets?: OpTargets;
}

let registrations = 0;

export function signedBodyArbitrary(op: Operation, ctx: SigningContext, signerId: string): fc.Arbitrary<unknown> | null {
  if (op.key === 'POST /v1/agents') {
    // The fuzzed exchange is sandbox, which registers SANDBOX_UNVERIFIED only: that level mostly,
    // so registrations reach 201, and now and then another (403 identity_level_not_allowed).
    const level = fc.oneof({ arbitrary: fc.constant('SANDBOX_UNVERIFIED' as const), weight: 4 }, { arbitrary: fc.constantFrom(...IDENTITY_LEVELS), weight: 1 });
    return fc.tuple(fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,20}$/), level).map(([name, level]) =>
      // Fresh keys each time: a reused key is 409 pubkey_in_use, which the hostile cases cover.
      buildRegistrationBody({ agentId: `fuzzreg:agent:${name}-${++registrations}`, keys: generateAgentKeys(), identityLevel: level }),
    );
  }
  const key = ctx.signingKeys.get(signerId);
  if (op.key === 'POST /v1/objects' && key) {
    return fc
      .record({
        type: fc.constantFrom('fuzz.note', 'attestation', 'fuzz.deep'),
        payload: fc.jsonValue({ maxDepth: 4 }),
        visibility: fc.constantFrom('public', 'parties', 'operator'),
      })
      .map((v) => ({ ...v, signer_agent_id: signerId, signature: signObjectPayload(v.payload, key) }));
  }
  if (op.key === 'POST /v1/mandates' && key && ctx.commerce) return mandateBody(ctx.commerce, [...ctx.commerce.mandateFor.keys()], signerId, key, ctx.now);
  if (op.key === 'POST /v1/commerce/ucp/checkout/create' && ctx.commerce) return checkoutBody(ctx.commerce, signerId);
  const own = ctx.actorPools?.get(signerId) ?? {};
  if (op.key === 'POST /v1/contracts') return contractBody(signerId, ctx.now);
  if (op.key === 'POST /v1/contracts/{contract_id}/offers') return offerBody(signerId, ctx.now);
  if (op.key === 'POST /v1/contracts/{contract_id}/results') return resultBody(signerId);
  if (op.key === 'POST /v1/contracts/{contract_id}/disputes') return disputeBody(signerId);
  const target = (name: string) => targetValue(ctx.targets, op.key, signerId, name);
  const reported = target('result_id');
  if (op.key === 'POST /v1/contracts/{contract_id}/verify' && key && reported) return verificationBody(signerId, key, reported);
  const acked = target('artifact_ref');
  if (op.key === 'POST /v1/artifacts/{artifact_ref}/acks' && key && acked) return ackBody(acked, signerId, key);
  const deals = target('deal_id');
  if (op.key === 'POST /v1/post-purchase/cases' && deals) return caseBody(deals);
  if (op.key === 'POST /v1/commerce/feedback/record' && deals) return feedbackBody(deals);
  if (op.key === 'POST /v1/post-purchase/cases/{case_id}' && target('case_id')) return caseUpdateBody();
  const aliases = target('alias');
  if (op.key === 'POST /v1/identity_reveals/mint' && aliases) return revealBody(targetsFor(ctx.targets, op.key, signerId));
  const payees = target('to_agent_id');
  if (op.key === 'POST /v1/wallets/{agent_id}/holds/{hold_id}/consume' && payees) return consumeHoldBody(payees);
  if (op.key === 'POST /v1/workflows/runs') return runBody(signerId);
  if (op.key === 'POST /v1/workflows/tasks/subscriptions') return subscriptionBody(own);
  if (op.key === 'POST /v1/workflows/tasks/subscriptions/{subscription_id}/events/consume') return consumeBody(own);
  if (op.key === 'POST /v1/gateway/proxy/calls') return proxyCallBody(own, signerId);
  if (op.key === 'POST /v1/gateway/casefiles/export') return casefileExportBody(own, signerId);
  const m = ctx.metering;
  if (!m) return null;
  if (op.key === 'POST /v1/meter_events/ingest' && key) return ingestBody(m, signerId, key, ctx.agents ?? [], ctx.now);
  if (op.key === 'POST /v1/billing/projections') return projectionBody(m, ctx.agents ?? []);
  if (op.key === 'POST /v1/billing/receipts/emit') return emitBody(m);
  return null;
}
