import { AGENT_CONTROLLER, MARKET_CONTROLLER, parseController, requireControlledBy, requireExpiryAllowed } from './hold-control';
import type { Hold } from '../domain/wallet.model';

const t0 = new Date('2026-11-21T10:00:00.000Z');
const hold = (controller: string): Hold => ({
  holdId: 'hld_1',
  agentId: 'acme:agent:a',
  amount: 100n,
  currency: 'CREDIT',
  status: 'active',
  expiresAt: null,
  reference: 'ctr_1',
  consumedAmount: null,
  releasedAmount: null,
  consumedToAgentId: null,
  journalEntryIds: ['jrn_0'],
  createdAt: t0,
  updatedAt: t0,
  controller,
});

describe('hold control', () => {
  it('should read an absent or empty controller as the agent, and keep service names', () => {
    expect(parseController(undefined)).toBe(AGENT_CONTROLLER);
    expect(parseController('')).toBe(AGENT_CONTROLLER);
    expect(parseController('agent')).toBe('agent');
    expect(parseController('market')).toBe(MARKET_CONTROLLER);
    expect(parseController('commerce_checkout')).toBe('commerce_checkout');
  });

  it.each(['Market', 'market-1', '1market', ' market', 'market ', 'a'.repeat(33), 'mär', 'market\u0000'])('should refuse the controller %j', (raw) => {
    expect(() => parseController(raw)).toThrow(expect.objectContaining({ code: 'validation_failed', details: { field: 'controller' } }));
  });

  it('should allow an expiry only on the agent’s own holds', () => {
    expect(() => requireExpiryAllowed('agent', t0)).not.toThrow();
    expect(() => requireExpiryAllowed('market', null)).not.toThrow();
    expect(() => requireExpiryAllowed('market', t0)).toThrow(expect.objectContaining({ code: 'validation_failed', details: { field: 'expires_at' } }));
  });

  it('should let only the controller’s path move a hold: hold_controlled_by_<controller> otherwise', () => {
    expect(() => requireControlledBy(hold('agent'), AGENT_CONTROLLER)).not.toThrow();
    expect(() => requireControlledBy(hold('market'), MARKET_CONTROLLER)).not.toThrow();
    expect(() => requireControlledBy(hold('market'), AGENT_CONTROLLER)).toThrow(
      expect.objectContaining({ code: 'hold_controlled_by_market', grpcCode: 7, details: { hold_id: 'hld_1', controller: 'market' } }),
    );
    expect(() => requireControlledBy(hold('agent'), MARKET_CONTROLLER)).toThrow(expect.objectContaining({ code: 'hold_controlled_by_agent' }));
    expect(() => requireControlledBy(hold('commerce'), AGENT_CONTROLLER)).toThrow(expect.objectContaining({ code: 'hold_controlled_by_commerce' }));
  });
});
