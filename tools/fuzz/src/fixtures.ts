// Real resources made with the SDK before fuzzing, so that generated requests name things that
// exist: signing agents with funded wallets, a hold, a deposit, a withdrawal, contracts open,
// settled and disputed (offers, results, a receipt, an escrow), a listing, a verifier, an
// object, an artifact, a thread, templates, an alias token, a real casefile and a workflow run
// with its task event subscriptions (workflow-fixtures.ts); and the targets of the operations that
// use their resource up (market-, wallet- and registry-fixtures.ts). A step that fails
// is reported and skipped: the fuzzing goes on with what exists.
import { ExchangeClient, generateAgentKeys, publicKeyToBase64, signVerificationReport, type AgentKeys } from '@exchange/sdk';
import { createAliasFixtures } from './alias-fixtures';
import { createCommerceFixtures, type CommerceContext } from './commerce-fixtures';
import { mergeActorPools, type Pools } from './id-pools';
import { createMarketFixtures } from './market-fixtures';
import { createMeteringFixtures, type MeteringContext } from './metering-fixtures';
import { createRegistryFixtures } from './registry-fixtures';
import { TargetSet, type OpTargets } from './op-targets';
import { createWalletFixtures } from './wallet-fixtures';
import { createWorkflowFixtures } from './workflow-fixtures';

export interface Signer {
  agentId: string;
  privateKey: Uint8Array;
}

export interface Fixtures {
  pools: Pools;
  /** Agents the fuzzer signs as (several: each has its own rate limit). */
  signers: Signer[];
  /** A real casefile archive (.tar.gz), when the export worked. */
  archive: Buffer | null;
  /** The wallet (agent id) each real hold, deposit and withdrawal belongs to. */
  owners: Map<string, string>;
  /** Escrow holds of the awarded and disputed contracts. */
  escrowHolds: string[];
  /** Identity levels setup left other than SANDBOX_UNVERIFIED (restored after a fuzzed change). */
  levels: Map<string, string>;
  /** Mandates per signing agent, the sandbox merchant and its items (commerce bodies). */
  commerce: CommerceContext;
  /** The epoch, periods and billable agents of the metering fixtures. */
  metering: MeteringContext;
  /** Per signing agent, the ids only it may act on (its sessions, mandates, runs, subscriptions…). */
  actorPools: ReadonlyMap<string, Pools>;
  /** Per operation, ids set aside that reach a 2xx together (an offer and its contract…). */
  targets: OpTargets;
  /** Steps that failed (the run goes on without what they would have made). */
  skipped: string[];
}

export interface FixtureOptions {
  baseUrl: string;
  operatorToken: string;
  namespace: string;
  signerCount: number;
  log: (line: string) => void;
}

const hour = 3600_000;

export async function createFixtures(opts: FixtureOptions): Promise<Fixtures> {
  const pools: Required<Pools> = {
    agent: [], contract: [], offer: [], listing: [], result: [], dispute: [], hold: [], deposit: [], withdrawal: [],
    payoutDestination: [], receipt: [], thread: [], template: [], workProductTemplate: [], object: [], artifact: [],
    decision: [], pubkey: [], fixture: [], docket: [], archive: [], mandate: [], commerceSession: [], merchantDomain: [],
    workflowRun: [], subscription: [], taskEvent: [],
    // Every contract, listing and thread below is tagged `fuzz`: telemetry's category of them.
    tag: ['fuzz'],
    projection: [], periodReceipt: [], proxyRun: [], deal: [], case: [],
  };
  const started = Date.now();
  const skipped: string[] = [];
  const targets = new TargetSet();
  const escrowHolds: string[] = [];
  const owners = new Map<string, string>();
  const operator = new ExchangeClient({ baseUrl: opts.baseUrl, operatorToken: opts.operatorToken, timeoutMs: 60_000 });
  const step = async <T>(name: string, fn: () => Promise<T>): Promise<T | null> => {
    try {
      return await fn();
    } catch (err) {
      skipped.push(`${name}: ${err instanceof Error ? err.message : String(err)}`.slice(0, 300));
      return null;
    }
  };
  const ns = opts.namespace;
  const agent = async (name: string, extraKeys: AgentKeys[] = []) => {
    const keys = generateAgentKeys();
    const agentId = `${ns}:agent:${name}`;
    await operator.agents.registerAgent({ agentId, keys, additionalPublicKeys: extraKeys.map((k) => k.publicKey) });
    pools.agent.push(agentId);
    return { agentId, keys, client: new ExchangeClient({ baseUrl: opts.baseUrl, agent: { agentId, privateKey: keys.privateKey }, timeoutMs: 60_000 }) };
  };

  // Signers (buyer, seller, verifier first), and a victim whose keys may be revoked or who may be frozen.
  const names = ['buyer', 'seller', 'verifier', ...Array.from({ length: Math.max(0, opts.signerCount - 3) }, (_, i) => `signer${i + 4}`)];
  const made = [];
  for (const name of names) {
    const a = await step(`register ${name}`, () => agent(name));
    if (a) made.push(a);
  }
  const victimExtra = generateAgentKeys();
  const victim = await step('register victim', () => agent('victim', [victimExtra]));
  if (victim) pools.pubkey.push(publicKeyToBase64(victimExtra.publicKey), publicKeyToBase64(victim.keys.publicKey));
  // Its extra key with its own agent (the pools pair a key with any agent: 404 key_not_found).
  if (victim) targets.add('POST /v1/agents/{agent_id}/keys/{pubkey}/revoke', null, { agent_id: victim.agentId, pubkey: publicKeyToBase64(victimExtra.publicKey) });
  const [buyer, seller, verifier] = made;
  if (!buyer || !seller || !verifier) throw new Error(`could not register the buyer, seller and verifier agents: ${skipped.join('; ')}`);

  for (const a of made) {
    await step(`faucet ${a.agentId}`, () => a.client.wallets.faucet(a.agentId, { amount: a === buyer ? '190' : '40', category: 'fuzz-setup', idempotencyKey: `setup-faucet-${a.agentId}` }));
  }
  const hold = await step('hold', () => buyer.client.wallets.createHold(buyer.agentId, { amount: '5', currency: 'CREDIT', reference: 'fuzz', expiresAt: new Date(Date.now() + 24 * hour) }));
  if (hold) pools.hold.push(hold.hold_id);
  if (hold) owners.set(hold.hold_id, buyer.agentId);
  const deposit = await step('deposit', () => buyer.client.wallets.createDeposit(buyer.agentId, { amount: '10', currency: 'CREDIT', method: 'sandbox', reference: 'fuzz' }));
  if (deposit) pools.deposit.push(deposit.deposit_id);
  if (deposit) owners.set(deposit.deposit_id, buyer.agentId);
  // Withdrawals need MAINNET_ATTESTED (and the faucet needs sandbox): the victim is funded first, then raised.
  const levels = new Map<string, string>();
  let payoutDestinationId: string | null = null;
  if (victim) {
    await step('victim faucet and level', async () => {
      await victim.client.wallets.faucet(victim.agentId, { amount: '40', category: 'fuzz-setup', idempotencyKey: `setup-faucet-${victim.agentId}` });
      await operator.agents.changeIdentityLevel(victim.agentId, 'MAINNET_BASIC', 'fuzz setup');
      await operator.agents.changeIdentityLevel(victim.agentId, 'MAINNET_ATTESTED', 'fuzz setup');
      levels.set(victim.agentId, 'MAINNET_ATTESTED');
    });
    const destination = await step('payout destination', () =>
      victim.client.wallets.createPayoutDestination(victim.agentId, { type: 'sandbox', details: { account: 'fuzz' }, label: 'fuzz' }),
    );
    if (destination) {
      payoutDestinationId = destination.payout_destination_id;
      pools.payoutDestination.push(destination.payout_destination_id);
      const withdrawal = await step('withdrawal', () =>
        victim.client.wallets.createWithdrawal(victim.agentId, { amount: '1', currency: 'CREDIT', payoutDestinationId: destination.payout_destination_id }),
      );
      if (withdrawal) pools.withdrawal.push(withdrawal.withdrawal_id);
      if (withdrawal) owners.set(withdrawal.withdrawal_id, victim.agentId);
    }
  }
  const withdrawer = victim && payoutDestinationId && levels.has(victim.agentId) ? { party: victim, payoutDestinationId } : null;
  await createWalletFixtures({ owner: buyer, payee: seller.agentId, withdrawer, targets, step });

  await step('verifier profile', () => verifier.client.verifiers.register({ name: 'Fuzz verifier', tags: ['fuzz'] }));
  await step('verifier listing', () => verifier.client.verifiers.listings.create({ title: 'Fuzz checks', tags: ['fuzz'], price: { amount: '1', currency: 'CREDIT' }, turnaround: 'PT1H' }));
  const listing = await step('listing', () => seller.client.listings.create({ title: 'Fuzz work', tags: ['fuzz'], price: { amount: '10', currency: 'CREDIT' }, turnaround: 'PT24H' }));
  if (listing) pools.listing.push(listing.listing_id);

  const contract = (title: string) =>
    buyer.client.contracts.create({
      title,
      tags: ['fuzz'],
      budget: { amount: '30', currency: 'CREDIT' },
      deadline: new Date(Date.now() + 48 * hour),
      acceptanceCriteria: 'anything',
      verificationMode: 'verifier',
      verifierId: verifier.agentId,
    });
  const offer = (contractId: string) =>
    seller.client.contracts.offers.submit(contractId, { price: { amount: '20', currency: 'CREDIT' }, eta: new Date(Date.now() + 24 * hour), terms: 'fuzz' });

  // An open contract with an open offer.
  const open = await step('open contract', () => contract('Fuzz open contract'));
  if (open) {
    pools.contract.push(open.contract_id);
    const o = await step('offer', () => offer(open.contract_id));
    if (o) pools.offer.push(o.offer_id);
  }
  // A settled contract: award, result, passing verification, receipt.
  const settled = await step('settled contract', async () => {
    const c = await contract('Fuzz settled contract');
    pools.contract.push(c.contract_id);
    const o = await offer(c.contract_id);
    pools.offer.push(o.offer_id);
    await operator.contracts.award(c.contract_id, o.offer_id);
    const r = await seller.client.contracts.results.submit(c.contract_id, { summary: 'done', payload: { ok: true } });
    pools.result.push(r.result_id);
    const draft = { verifierId: verifier.agentId, resultId: r.result_id, verdict: 'pass' as const, score: 0.9, checks: [{ name: 'ok', ok: true }] };
    await verifier.client.contracts.verify(c.contract_id, { ...draft, signature: signVerificationReport(draft, verifier.keys.privateKey) });
    const receipt = await buyer.client.contracts.receipt(c.contract_id);
    pools.receipt.push(receipt.receipt_id);
    return c;
  });
  // An awarded contract with a delivered result, awaiting verification (its escrow is held).
  /** A contract awarded to `seller` with a delivered result; its escrow hold is recorded. */
  const deliveredContract = async (title: string, result: { summary: string; payload: unknown }) => {
    const c = await contract(title);
    pools.contract.push(c.contract_id);
    const o = await offer(c.contract_id);
    pools.offer.push(o.offer_id);
    const awarded = await operator.contracts.award(c.contract_id, o.offer_id);
    if (awarded.hold_id) {
      pools.hold.push(awarded.hold_id);
      escrowHolds.push(awarded.hold_id);
      owners.set(awarded.hold_id, buyer.agentId);
    }
    const r = await seller.client.contracts.results.submit(c.contract_id, result);
    pools.result.push(r.result_id);
    return c;
  };
  await step('awarded contract', () => deliveredContract('Fuzz awarded contract', { summary: 'delivered', payload: { ok: true } }));
  // A disputed contract: its escrow is held (the hold-controller rules apply to it).
  await step('disputed contract', async () => {
    const c = await deliveredContract('Fuzz disputed contract', { summary: 'disputed work', payload: { ok: false } });
    const d = await buyer.client.contracts.disputes.open(c.contract_id, { reason: 'fuzz dispute' });
    pools.dispute.push(d.dispute_id);
  });

  escrowHolds.push(...(await createMarketFixtures({ operator, parties: made, settledContractId: settled?.contract_id ?? null, targets, step })));

  const object = await step('object', () => buyer.client.objects.store({ type: 'fuzz.note', payload: { note: 'fuzz' }, tags: ['fuzz'] }));
  if (object) pools.object.push(object.object_id);
  const artifact = await step('artifact', () =>
    buyer.client.artifacts.upload({ content: Buffer.from(`fuzz artifact ${ns}`), mediaType: 'text/plain', access: 'public', ...(settled ? { contractId: settled.contract_id } : {}) }),
  );
  if (artifact) pools.artifact.push(artifact.artifact_ref);
  await createRegistryFixtures({ operator, uploader: buyer.client, publicArtifact: artifact?.artifact_ref ?? null, namespace: ns, targets, step });
  const thread = await step('thread', () => buyer.client.coordination.createThread({ title: 'Fuzz thread', tags: ['fuzz'], body: 'first post' }));
  if (thread) pools.thread.push(thread.thread_id);
  const templates = await step('templates', () => operator.templates.contracts({ limit: 5 }));
  for (const t of templates?.data ?? []) pools.template.push(t.template_id);
  const products = await step('work-product templates', () => operator.templates.workProducts({ limit: 5 }));
  for (const t of products?.data ?? []) {
    pools.workProductTemplate.push(t.template_id);
    pools.template.push(t.template_id);
  }
  const fixtures = await step('fixtures', () => operator.fixtures.list({ limit: 5 }));
  for (const f of fixtures?.data ?? []) pools.fixture.push(f.fixture_id);
  if (settled) {
    const aliasId = await createAliasFixtures({ operator, contractId: settled.contract_id, revealTo: seller.agentId, targets, step });
    if (aliasId) pools.object.push(aliasId);
  }
  let archive: Buffer | null = null;
  if (settled) {
    const exported = await step('casefile export', () => operator.casefiles.export({ subject: { contractId: settled.contract_id }, includePayloads: true }));
    if (exported) {
      archive = Buffer.from(exported.archive_base64, 'base64');
      pools.docket.push(exported.docket);
      pools.archive.push(exported.archive_base64);
    }
  }
  const decisions = await step('resale decisions', () => operator.resaleReviews.list({ limit: 5 }));
  for (const d of (decisions?.data ?? []) as unknown as Array<{ decision_ref?: string }>) if (d.decision_ref) pools.decision.push(d.decision_ref);
  // The settled contract's hold is consumed; the open hold and the escrow are live.
  if (settled?.hold_id) pools.hold.push(settled.hold_id);
  if (settled?.hold_id) owners.set(settled.hold_id, buyer.agentId);

  const commerce = await createCommerceFixtures({ operator, parties: made, pools, namespace: ns, targets, step });
  // A run per signing agent (each has 40 CREDIT or more; a run's 4 CREDIT budget is checked, not held).
  const workflows = await createWorkflowFixtures({ operator, owners: made, pools, namespace: ns, step });
  // After the workflow runs (checked against the balance): each signer then holds 3 CREDIT as its proxy budget.
  const metering = await createMeteringFixtures({ operator, parties: made, pools, namespace: ns, step });
  const actorPools = mergeActorPools(commerce.actorPools, workflows.actorPools, metering.actorPools);

  const signers = made.map((a) => ({ agentId: a.agentId, privateKey: a.keys.privateKey }));
  const targetCount = [...targets.byOp.values()].reduce((n, list) => n + list.length, 0);
  opts.log(
    `fixtures in ${((Date.now() - started) / 1000).toFixed(1)} s: ${signers.length} signing agents, ` +
      `${Object.entries(pools).filter(([, v]) => v.length > 0).map(([k, v]) => `${k} ${v.length}`).join(', ')}; ${targetCount} targets of ${targets.byOp.size} operations`,
  );
  return { pools, signers, archive, owners, escrowHolds, levels, commerce, metering, actorPools, targets: targets.byOp, skipped };
}
