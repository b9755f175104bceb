import { canonicalize, generateKeyPair, publicKeyFromPrivate, signCanonical, toBase64, verifyCanonical } from '@exchange/crypto';
import { walletV1 } from '@exchange/proto';
import { balanceToJson, depositMethodFromJson, depositStatusFromJson, depositToJson, faucetGrantToJson, holdToJson, payoutDestinationFromJson, payoutDestinationToJson, receiptToJson, transferToJson, WalletContractError, withdrawalToJson } from './wallet.mapper';
import { nextCursorToJson } from '../../lib/pagination';

const W = walletV1;
const T1 = new Date('2026-11-21T18:00:00.000Z');
const T2 = new Date('2026-11-21T18:05:00.250Z');

describe('wallet.mapper', () => {
  it('should map a balance snapshot', () => {
    expect(
      balanceToJson({ agentId: 'a:agent:b', balances: [{ currency: 'CREDIT', available: '1.5', held: '2', total: '3.5' }], asOf: T1 }),
    ).toEqual({ agent_id: 'a:agent:b', balances: [{ currency: 'CREDIT', available: '1.5', held: '2', total: '3.5' }], as_of: '2026-11-21T18:00:00.000Z' });
  });

  it('should map a faucet grant and a transfer (absent memo → null)', () => {
    expect(
      faucetGrantToJson({
        faucetGrantId: 'fgr_1',
        agentId: 'a:agent:b',
        amount: '50',
        currency: 'CREDIT',
        category: 'c',
        journalEntryId: 'jrn_1',
        grantedToday: '50',
        remainingToday: '150',
        resetsAt: T2,
        createdAt: T1,
      }),
    ).toMatchObject({ faucet_grant_id: 'fgr_1', resets_at: '2026-11-21T18:05:00.250Z', remaining_today: '150' });
    expect(
      transferToJson({ transferId: 'trf_1', fromAgentId: 'a', toAgentId: 'b', amount: '1', currency: 'CREDIT', journalEntryId: 'jrn_1', createdAt: T1 }).memo,
    ).toBeNull();
  });

  it('should map every hold status to lowercase and absent optionals to null', () => {
    const base: walletV1.Hold = { holdId: 'hld_1', agentId: 'a', amount: '30', currency: 'CREDIT', status: W.HoldStatus.HOLD_STATUS_ACTIVE, journalEntryIds: ['jrn_1'], createdAt: T1, updatedAt: T2 };
    expect(holdToJson(base)).toEqual({
      hold_id: 'hld_1',
      agent_id: 'a',
      amount: '30',
      currency: 'CREDIT',
      status: 'active',
      expires_at: null,
      reference: null,
      consumed_amount: null,
      released_amount: null,
      consumed_to_agent_id: null,
      journal_entry_ids: ['jrn_1'],
      created_at: '2026-11-21T18:00:00.000Z',
      updated_at: '2026-11-21T18:05:00.250Z',
    });
    const statuses: Array<[walletV1.HoldStatus, string]> = [
      [W.HoldStatus.HOLD_STATUS_RELEASED, 'released'],
      [W.HoldStatus.HOLD_STATUS_CONSUMED, 'consumed'],
      [W.HoldStatus.HOLD_STATUS_EXPIRED, 'expired'],
    ];
    for (const [status, name] of statuses) expect(holdToJson({ ...base, status }).status).toBe(name);
    expect(holdToJson({ ...base, expiresAt: T2, consumedAmount: '20', releasedAmount: '10', consumedToAgentId: 'c' })).toMatchObject({
      expires_at: '2026-11-21T18:05:00.250Z',
      consumed_amount: '20',
      released_amount: '10',
      consumed_to_agent_id: 'c',
    });
  });

  it('should treat an UNSPECIFIED enum or a missing resource as a contract breach', () => {
    expect(() => holdToJson({ holdId: 'h', agentId: 'a', amount: '1', currency: 'C', status: W.HoldStatus.HOLD_STATUS_UNSPECIFIED, journalEntryIds: [], createdAt: T1, updatedAt: T1 })).toThrow(
      WalletContractError,
    );
    expect(() => depositToJson(undefined)).toThrow(WalletContractError);
    expect(() => withdrawalToJson(undefined)).toThrow(/withdrawal/);
  });

  it('should map deposits, methods and status filters both ways', () => {
    expect(
      depositToJson({
        depositId: 'dep_1',
        agentId: 'a',
        amount: '100',
        currency: 'CREDIT',
        method: W.DepositMethod.DEPOSIT_METHOD_CRYPTO,
        status: W.DepositStatus.DEPOSIT_STATUS_CONFIRMED,
        journalEntryId: 'jrn_9',
        createdAt: T1,
        updatedAt: T2,
      }),
    ).toMatchObject({ method: 'crypto', status: 'confirmed', journal_entry_id: 'jrn_9', reference: null });
    expect(depositMethodFromJson('sandbox')).toBe(W.DepositMethod.DEPOSIT_METHOD_SANDBOX);
    expect(depositMethodFromJson('bank')).toBe(W.DepositMethod.DEPOSIT_METHOD_BANK);
    expect(depositStatusFromJson(undefined)).toBe(W.DepositStatus.DEPOSIT_STATUS_UNSPECIFIED);
    expect(depositStatusFromJson('expired')).toBe(W.DepositStatus.DEPOSIT_STATUS_EXPIRED);
  });

  it('should map payout destinations both ways', () => {
    expect(payoutDestinationFromJson({ type: 'bank_account', details: { iban: 'X' }, label: 'l' })).toEqual({
      type: W.PayoutDestinationType.PAYOUT_DESTINATION_TYPE_BANK_ACCOUNT,
      details: { iban: 'X' },
      label: 'l',
    });
    expect(
      payoutDestinationToJson({ payoutDestinationId: 'pod_1', agentId: 'a', type: W.PayoutDestinationType.PAYOUT_DESTINATION_TYPE_SANDBOX, details: {}, label: '', createdAt: T1 }),
    ).toEqual({ payout_destination_id: 'pod_1', agent_id: 'a', type: 'sandbox', details: {}, label: '', created_at: '2026-11-21T18:00:00.000Z' });
  });

  it('should map withdrawals with their failure reason', () => {
    expect(
      withdrawalToJson({
        withdrawalId: 'wdr_1',
        agentId: 'a',
        amount: '5',
        currency: 'CREDIT',
        payoutDestinationId: 'pod_1',
        status: W.WithdrawalStatus.WITHDRAWAL_STATUS_FAILED,
        failureReason: 'rail said no',
        journalEntryIds: ['j1', 'j2'],
        createdAt: T1,
        updatedAt: T2,
      }),
    ).toMatchObject({ status: 'failed', failure_reason: 'rail said no', journal_entry_ids: ['j1', 'j2'] });
  });

  it('should give a receipt the exact JSON form the exchange signed, so its signature verifies', () => {
    const { privateKey } = generateKeyPair();
    const publicKey = toBase64(publicKeyFromPrivate(privateKey));
    const unsigned = {
      receipt_id: 'rcpt_1',
      kind: 'refund',
      contract_id: 'ctr_1',
      hold_id: 'hld_1',
      payer: 'a:agent:p',
      payee: 'a:agent:p',
      amount: '30',
      fee: '0',
      refunded_amount: '30',
      currency: 'CREDIT',
      journal_entry_ids: ['jrn_1'],
      settled_at: '2026-11-21T18:05:00.250Z',
      signer_public_key: publicKey,
    };
    const signature = signCanonical(unsigned, privateKey);
    const json = receiptToJson({
      receiptId: 'rcpt_1',
      kind: W.ReceiptKind.RECEIPT_KIND_REFUND,
      contractId: 'ctr_1',
      holdId: 'hld_1',
      payer: 'a:agent:p',
      payee: 'a:agent:p',
      amount: '30',
      fee: '0',
      refundedAmount: '30',
      currency: 'CREDIT',
      journalEntryIds: ['jrn_1'],
      settledAt: T2,
      signature,
      signerPublicKey: publicKey,
    });
    expect(json).toEqual({ ...unsigned, signature });
    const { signature: sig, ...rest } = json;
    expect(canonicalize(rest)).toBe(canonicalize(unsigned));
    expect(verifyCanonical(rest, sig, publicKey)).toBe(true);
  });

  it('should give refunds_receipt_id and reason on a purchase refund receipt only, so its signature still verifies', () => {
    const { privateKey } = generateKeyPair();
    const publicKey = toBase64(publicKeyFromPrivate(privateKey));
    const unsigned = {
      receipt_id: 'rcpt_2',
      kind: 'purchase_refund',
      contract_id: 'pur_1',
      hold_id: 'hld_1',
      payer: 'merchant:shop.example.com',
      payee: 'a:agent:p',
      amount: '12.5',
      fee: '0',
      refunded_amount: '0',
      currency: 'CREDIT',
      journal_entry_ids: ['jrn_2'],
      settled_at: '2026-11-25T01:00:00.000Z',
      signer_public_key: publicKey,
      refunds_receipt_id: 'rcpt_1',
      reason: 'arrived damaged',
    };
    const signature = signCanonical(unsigned, privateKey);
    const json = receiptToJson({
      receiptId: 'rcpt_2',
      kind: W.ReceiptKind.RECEIPT_KIND_PURCHASE_REFUND,
      contractId: 'pur_1',
      holdId: 'hld_1',
      payer: 'merchant:shop.example.com',
      payee: 'a:agent:p',
      amount: '12.5',
      fee: '0',
      refundedAmount: '0',
      currency: 'CREDIT',
      journalEntryIds: ['jrn_2'],
      settledAt: new Date('2026-11-25T01:00:00.000Z'),
      signature,
      signerPublicKey: publicKey,
      refundsReceiptId: 'rcpt_1',
      reason: 'arrived damaged',
    });
    expect(json).toEqual({ ...unsigned, signature });
    expect(json).not.toHaveProperty('corrects_receipt_id');
    const { signature: sig, ...rest } = json;
    expect(verifyCanonical(rest, sig, publicKey)).toBe(true);
  });

  it('should turn an empty next cursor into null', () => {
    expect(nextCursorToJson({ nextCursor: '' })).toBeNull();
    expect(nextCursorToJson(undefined)).toBeNull();
    expect(nextCursorToJson({ nextCursor: 'abc' })).toBe('abc');
  });
});
