import { parseSettlementController, settlementPayee } from './settlement-payee';

const invalid = (field: string) => expect.objectContaining({ grpcCode: 3, code: 'validation_failed', details: { field } });

describe('parseSettlementController', () => {
  it('should read absent and "" as market, and accept market and commerce', () => {
    expect(parseSettlementController(undefined)).toBe('market');
    expect(parseSettlementController('')).toBe('market');
    expect(parseSettlementController('market')).toBe('market');
    expect(parseSettlementController('commerce')).toBe('commerce');
  });

  it.each(['agent', 'Commerce', 'commerce ', 'registry', 'x'.repeat(300), 'market\u0000'])('should refuse %j naming the field', (raw) => {
    expect(() => parseSettlementController(raw)).toThrow(invalid('controller'));
  });
});

describe('settlementPayee', () => {
  const payer = 'acme:agent:buyer';

  it('should pay an agent payee, under either controller', () => {
    expect(settlementPayee({ controller: 'market', payer, payeeAgentId: 'acme:agent:seller', payeeMerchantDomain: undefined })).toEqual({
      kind: 'agent',
      owner: 'acme:agent:seller',
    });
    expect(settlementPayee({ controller: 'commerce', payer, payeeAgentId: 'acme:agent:seller', payeeMerchantDomain: '' })).toEqual({
      kind: 'agent',
      owner: 'acme:agent:seller',
    });
  });

  it("should pay a commerce purchase to the merchant's owner merchant:<domain>", () => {
    expect(settlementPayee({ controller: 'commerce', payer, payeeAgentId: '', payeeMerchantDomain: 'sandbox-merchant.local' })).toEqual({
      kind: 'merchant',
      owner: 'merchant:sandbox-merchant.local',
      domain: 'sandbox-merchant.local',
    });
  });

  it('should want exactly one payee', () => {
    expect(() => settlementPayee({ controller: 'market', payer, payeeAgentId: '', payeeMerchantDomain: undefined })).toThrow(invalid('payee_agent_id'));
    expect(() => settlementPayee({ controller: 'commerce', payer, payeeAgentId: undefined, payeeMerchantDomain: '' })).toThrow(
      expect.objectContaining({ message: 'payee_agent_id or payee_merchant_domain is required' }),
    );
    expect(() => settlementPayee({ controller: 'commerce', payer, payeeAgentId: 'acme:agent:seller', payeeMerchantDomain: 'shop.example.com' })).toThrow(
      invalid('payee_merchant_domain'),
    );
  });

  it('should refuse a merchant payee outside commerce, and a malformed domain', () => {
    expect(() => settlementPayee({ controller: 'market', payer, payeeAgentId: '', payeeMerchantDomain: 'shop.example.com' })).toThrow(
      invalid('payee_merchant_domain'),
    );
    for (const domain of ['Shop.example.com', 'shop.example.com:443', 'merchant:shop.example.com', 'shop..com']) {
      expect(() => settlementPayee({ controller: 'commerce', payer, payeeAgentId: '', payeeMerchantDomain: domain })).toThrow(invalid('payee_merchant_domain'));
    }
  });

  it('should refuse paying the payer itself and an over-long agent id', () => {
    expect(() => settlementPayee({ controller: 'market', payer, payeeAgentId: payer, payeeMerchantDomain: undefined })).toThrow(
      expect.objectContaining({ code: 'self_transfer' }),
    );
    expect(() => settlementPayee({ controller: 'market', payer, payeeAgentId: 'a'.repeat(256), payeeMerchantDomain: undefined })).toThrow(invalid('payee_agent_id'));
  });
});
