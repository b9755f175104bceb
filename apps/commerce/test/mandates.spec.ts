import { status } from '@grpc/grpc-js';
import { commerceV1 } from '@exchange/proto';
import { agentActor, grpcError, operatorActor, startMandatesHarness, type MandatesHarness } from './support/mandates-harness';

jest.setTimeout(60_000);

const { MandateStatus, AutonomyMode } = commerceV1;

describe('commerce mandates (gRPC, real PostgreSQL)', () => {
  let h: MandatesHarness;

  beforeAll(async () => {
    h = await startMandatesHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  describe('CreateMandate', () => {
    it('should store a signed mandate with default autonomy, its signed payload and a created event', async () => {
      const signer = h.newAgent('signer');
      const buyer = h.newAgent('buyer');
      const res = await h.client.createMandate(h.createRequest(signer, buyer.agentId, { scopeSkus: ['sku-1'] }));
      const m = res.mandate!;
      expect(res.idempotentReplayed).toBe(false);
      expect(m.mandateId).toMatch(/^mdt_/);
      expect(m).toMatchObject({
        signerAgentId: signer.agentId,
        agentId: buyer.agentId,
        scopeMerchants: ['sandbox-merchant.local'],
        scopeSkus: ['sku-1'],
        perTransaction: '25.5',
        totalLimit: '100',
        currency: 'USD',
        status: MandateStatus.MANDATE_STATUS_ACTIVE,
        spent: '0',
        reserved: '0',
        autonomy: { mode: AutonomyMode.AUTONOMY_MODE_AUTONOMOUS, approvalForNewMerchants: false },
      });
      const { rows } = await h.sql.query('SELECT signed_payload, per_transaction FROM mandates WHERE mandate_id = $1', [m.mandateId]);
      expect(rows[0].per_transaction).toBe('25500000');
      expect(rows[0].signed_payload).toMatchObject({ signer_agent_id: signer.agentId, limits: { per_transaction: '25.50', total: '100', currency: 'USD' } });
      expect(rows[0].signed_payload.expires_at).toBe(m.expiresAt!.toISOString());
      const events = await h.outbox(m.mandateId);
      expect(events.map((e) => e.type)).toEqual(['exchange.commerce.mandate.created']);
      expect(events[0].data.mandate).toMatchObject({ mandateId: m.mandateId, status: 'MANDATE_STATUS_ACTIVE', totalLimit: '100' });
    });

    it('should refuse a signature that is not the signer\'s, or over other fields, storing nothing', async () => {
      const signer = h.newAgent('signer');
      const other = h.newAgent('other');
      const buyer = h.newAgent('buyer');
      const forged = { ...h.createRequest(other, buyer.agentId), actor: agentActor(signer), signerAgentId: signer.agentId };
      expect((await grpcError(h.client.createMandate(forged))).code).toBe('mandate_signature_invalid');
      const tampered = { ...h.createRequest(signer, buyer.agentId), totalLimit: '1000' };
      const err = await grpcError(h.client.createMandate(tampered));
      expect(err).toMatchObject({ grpcCode: status.INVALID_ARGUMENT, code: 'mandate_signature_invalid' });
      expect((await grpcError(h.client.createMandate({ ...h.createRequest(signer, buyer.agentId), signature: '!!notbase64' }))).code).toBe(
        'mandate_signature_invalid',
      );
      const { rows } = await h.sql.query('SELECT count(*)::int AS n FROM mandates WHERE signer_agent_id = $1', [signer.agentId]);
      expect(rows[0].n).toBe(0);
    });

    it('should let only the signer itself create (not another agent, not the operator)', async () => {
      const signer = h.newAgent('signer');
      const buyer = h.newAgent('buyer');
      const req = h.createRequest(signer, buyer.agentId);
      expect(await grpcError(h.client.createMandate({ ...req, actor: agentActor(buyer) }))).toMatchObject({
        grpcCode: status.PERMISSION_DENIED,
        code: 'acting_agent_mismatch',
      });
      expect((await grpcError(h.client.createMandate({ ...req, actor: operatorActor }))).code).toBe('acting_agent_mismatch');
    });

    it('should want both agents known and the signer not frozen', async () => {
      const signer = h.newAgent('signer');
      expect(await grpcError(h.client.createMandate(h.createRequest(signer, 'agt_nobody')))).toMatchObject({
        grpcCode: status.NOT_FOUND,
        code: 'agent_not_found',
      });
      const frozen = h.newAgent('frozen');
      h.identity.freeze(frozen.agentId);
      expect((await grpcError(h.client.createMandate(h.createRequest(frozen, signer.agentId)))).code).toBe('agent_frozen');
    });

    it('should answer hostile or invalid fields with a 400 naming the rule', async () => {
      const signer = h.newAgent('signer');
      const buyer = h.newAgent('buyer');
      const cases: Array<[Partial<commerceV1.CreateMandateRequest>, string]> = [
        [{ perTransaction: '-1' }, 'invalid_amount'],
        [{ totalLimit: '1e9' }, 'invalid_amount'],
        [{ totalLimit: '10' }, 'validation_failed'],
        [{ currency: 'ZZZ' }, 'unsupported_currency'],
        [{ expiresAt: new Date(h.clock.now().getTime() - 1000) }, 'validation_failed'],
        [{ expiresAt: undefined }, 'validation_failed'],
        [{ scopeMerchants: ['HTTPS://Shop.example/'] }, 'invalid_merchant_domain'],
        [{ scopeSkus: Array.from({ length: 101 }, (_, i) => `s${i}`) }, 'validation_failed'],
        [{ scopeCategories: ['\u0000'] }, 'validation_failed'],
        [{ autonomy: { mode: AutonomyMode.AUTONOMY_MODE_STEP_UP, stepUpThreshold: undefined, approvalForNewMerchants: false } }, 'validation_failed'],
        [{ autonomy: { mode: AutonomyMode.AUTONOMY_MODE_AUTONOMOUS, stepUpThreshold: undefined, approvalForNewMerchants: false, dailyLimit: '0' } }, 'invalid_amount'],
        [{ idempotencyKey: 'k\u0001' }, 'invalid_idempotency_key'],
      ];
      for (const [over, code] of cases) {
        const err = await grpcError(h.client.createMandate(h.resign(signer, { ...h.createRequest(signer, buyer.agentId), ...over })));
        expect({ over, code: err.code, grpc: err.grpcCode }).toEqual({ over, code, grpc: status.INVALID_ARGUMENT });
      }
      const { rows } = await h.sql.query('SELECT count(*)::int AS n FROM mandates WHERE signer_agent_id = $1', [signer.agentId]);
      expect(rows[0].n).toBe(0);
    });

    it('should replay the same request under the same key, and refuse another request under it', async () => {
      const signer = h.newAgent('signer');
      const buyer = h.newAgent('buyer');
      const req = h.createRequest(signer, buyer.agentId, { idempotencyKey: 'mandate-1' });
      const first = await h.client.createMandate(req);
      const again = await h.client.createMandate(req);
      expect(again.idempotentReplayed).toBe(true);
      expect(again.mandate).toEqual(first.mandate);
      const other = h.resign(signer, { ...req, totalLimit: '90' });
      expect(await grpcError(h.client.createMandate(other))).toMatchObject({ code: 'idempotency_key_reused' });
      // Keys are per signer: another signer's same key is a new mandate.
      const signer2 = h.newAgent('signer');
      const theirs = await h.client.createMandate(h.createRequest(signer2, buyer.agentId, { idempotencyKey: 'mandate-1' }));
      expect(theirs.idempotentReplayed).toBe(false);
      expect(theirs.mandate!.mandateId).not.toBe(first.mandate!.mandateId);
      expect(await h.outbox(first.mandate!.mandateId)).toHaveLength(1);
    });

    it('should create exactly one mandate for concurrent duplicates of one key', async () => {
      const signer = h.newAgent('signer');
      const buyer = h.newAgent('buyer');
      const req = h.createRequest(signer, buyer.agentId, { idempotencyKey: 'race' });
      const answers = await Promise.all(Array.from({ length: 8 }, () => h.client.createMandate(req)));
      expect(new Set(answers.map((a) => a.mandate!.mandateId)).size).toBe(1);
      expect(answers.filter((a) => !a.idempotentReplayed)).toHaveLength(1);
      const { rows } = await h.sql.query('SELECT count(*)::int AS n FROM mandates WHERE signer_agent_id = $1', [signer.agentId]);
      expect(rows[0].n).toBe(1);
    });
  });

  describe('GetMandate and GetAutonomy', () => {
    it('should let the signer, the agent and the operator read, and answer 404 to anyone else', async () => {
      const signer = h.newAgent('signer');
      const buyer = h.newAgent('buyer');
      const stranger = h.newAgent('stranger');
      const { mandate } = await h.client.createMandate(h.createRequest(signer, buyer.agentId));
      const id = mandate!.mandateId;
      for (const actor of [agentActor(signer), agentActor(buyer), operatorActor]) {
        expect((await h.client.getMandate({ actor, mandateId: id })).mandate).toEqual(mandate);
        expect((await h.client.getAutonomy({ actor, mandateId: id })).autonomy).toEqual(mandate!.autonomy);
      }
      for (const call of [h.client.getMandate({ actor: agentActor(stranger), mandateId: id }), h.client.getAutonomy({ actor: agentActor(stranger), mandateId: id })]) {
        expect(await grpcError(call)).toMatchObject({ grpcCode: status.NOT_FOUND, code: 'mandate_not_found' });
      }
      expect((await grpcError(h.client.getMandate({ actor: operatorActor, mandateId: 'mdt_missing' }))).code).toBe('mandate_not_found');
    });

    it('should show expired once expires_at has passed', async () => {
      const signer = h.newAgent('signer');
      const buyer = h.newAgent('buyer');
      const expiresAt = new Date(h.clock.now().getTime() + 60_000);
      const { mandate } = await h.client.createMandate(h.createRequest(signer, buyer.agentId, { expiresAt }));
      h.clock.advance(61_000);
      try {
        const read = await h.client.getMandate({ actor: agentActor(signer), mandateId: mandate!.mandateId });
        expect(read.mandate!.status).toBe(MandateStatus.MANDATE_STATUS_EXPIRED);
      } finally {
        h.clock.advance(-61_000);
      }
    });
  });

  describe('PutAutonomy', () => {
    it('should replace the settings in full (signer only) and record an autonomy_updated event', async () => {
      const signer = h.newAgent('signer');
      const buyer = h.newAgent('buyer');
      const { mandate } = await h.client.createMandate(h.createRequest(signer, buyer.agentId));
      const id = mandate!.mandateId;
      const stepUp = { mode: AutonomyMode.AUTONOMY_MODE_STEP_UP, stepUpThreshold: { amount: '20.5', currency: 'USD' }, approvalForNewMerchants: true, dailyLimit: '50' };
      const put = await h.client.putAutonomy({ actor: agentActor(signer), mandateId: id, autonomy: stepUp });
      expect(put).toEqual({ mandateId: id, autonomy: stepUp });
      expect((await h.client.getAutonomy({ actor: agentActor(buyer), mandateId: id })).autonomy).toEqual(stepUp);
      // Full replacement: what is left out is gone.
      const manual = { mode: AutonomyMode.AUTONOMY_MODE_MANUAL, stepUpThreshold: undefined, approvalForNewMerchants: false };
      expect((await h.client.putAutonomy({ actor: agentActor(signer), mandateId: id, autonomy: manual })).autonomy).toEqual({ ...manual, dailyLimit: undefined });
      const events = await h.outbox(id);
      expect(events.map((e) => e.type)).toEqual([
        'exchange.commerce.mandate.created',
        'exchange.commerce.mandate.autonomy_updated',
        'exchange.commerce.mandate.autonomy_updated',
      ]);
      expect(events[1].data.mandate.autonomy).toEqual({ mode: 'AUTONOMY_MODE_STEP_UP', stepUpThreshold: { amount: '20.5', currency: 'USD' }, approvalForNewMerchants: true, dailyLimit: '50' });
    });

    it('should refuse the agent and the operator (403), strangers (404) and bad settings (400), changing nothing', async () => {
      const signer = h.newAgent('signer');
      const buyer = h.newAgent('buyer');
      const { mandate } = await h.client.createMandate(h.createRequest(signer, buyer.agentId));
      const id = mandate!.mandateId;
      const manual = { mode: AutonomyMode.AUTONOMY_MODE_MANUAL, stepUpThreshold: undefined, approvalForNewMerchants: false };
      for (const actor of [agentActor(buyer), operatorActor]) {
        expect(await grpcError(h.client.putAutonomy({ actor, mandateId: id, autonomy: manual }))).toMatchObject({
          grpcCode: status.PERMISSION_DENIED,
          code: 'not_mandate_signer',
        });
      }
      expect((await grpcError(h.client.putAutonomy({ actor: agentActor(h.newAgent('x')), mandateId: id, autonomy: manual }))).code).toBe('mandate_not_found');
      const bad: Array<[commerceV1.Autonomy | undefined, string]> = [
        [undefined, 'validation_failed'],
        [{ mode: AutonomyMode.AUTONOMY_MODE_UNSPECIFIED, stepUpThreshold: undefined, approvalForNewMerchants: false }, 'validation_failed'],
        [{ mode: AutonomyMode.AUTONOMY_MODE_STEP_UP, stepUpThreshold: { amount: '5', currency: 'EUR' }, approvalForNewMerchants: false }, 'validation_failed'],
        [{ mode: AutonomyMode.AUTONOMY_MODE_STEP_UP, stepUpThreshold: { amount: '5.0000001', currency: 'USD' }, approvalForNewMerchants: false }, 'invalid_amount'],
      ];
      for (const [autonomy, code] of bad) {
        expect((await grpcError(h.client.putAutonomy({ actor: agentActor(signer), mandateId: id, autonomy }))).code).toBe(code);
      }
      expect((await h.client.getAutonomy({ actor: agentActor(signer), mandateId: id })).autonomy).toEqual(mandate!.autonomy);
      expect(await h.outbox(id)).toHaveLength(1);
    });

    it('should keep the settings of a revoked or expired mandate (403 mandate_inactive)', async () => {
      const signer = h.newAgent('signer');
      const buyer = h.newAgent('buyer');
      const manual = { mode: AutonomyMode.AUTONOMY_MODE_MANUAL, stepUpThreshold: undefined, approvalForNewMerchants: false };
      const revoked = (await h.client.createMandate(h.createRequest(signer, buyer.agentId))).mandate!.mandateId;
      await h.sql.query(`UPDATE mandates SET status = 'revoked' WHERE mandate_id = $1`, [revoked]);
      expect(await grpcError(h.client.putAutonomy({ actor: agentActor(signer), mandateId: revoked, autonomy: manual }))).toMatchObject({
        code: 'mandate_inactive',
        details: { status: 'revoked' },
      });
      const expiring = (await h.client.createMandate(h.createRequest(signer, buyer.agentId, { expiresAt: new Date(h.clock.now().getTime() + 60_000) })))
        .mandate!.mandateId;
      h.clock.advance(61_000);
      try {
        expect((await grpcError(h.client.putAutonomy({ actor: agentActor(signer), mandateId: expiring, autonomy: manual }))).code).toBe('mandate_inactive');
      } finally {
        h.clock.advance(-61_000);
      }
      expect(await h.outbox(expiring)).toHaveLength(1);
    });
  });
});
