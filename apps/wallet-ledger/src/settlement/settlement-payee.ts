import { merchantOwner, parseMerchantDomain } from '../domain/merchant';
import { walletErrors } from '../domain/wallet.errors';
import { COMMERCE_CONTROLLER, MARKET_CONTROLLER } from '../holds/hold-control';

// Settle and Refund serve two services' holds: the market's escrow and commerce's purchases.
// The request names the controller; only holds of that controller move (hold-control.ts).

export type SettlementController = typeof MARKET_CONTROLLER | typeof COMMERCE_CONTROLLER;

/** The controller a Settle / Refund names: absent or "" → market; "market" or "commerce"; else validation_failed. */
export function parseSettlementController(raw: string | undefined): SettlementController {
  if (raw === undefined || raw === '' || raw === MARKET_CONTROLLER) return MARKET_CONTROLLER;
  if (raw === COMMERCE_CONTROLLER) return COMMERCE_CONTROLLER;
  throw walletErrors.validationFailed('controller must be "market" or "commerce"', { field: 'controller' });
}

/**
 * Who a Settle pays: an agent (checked against identity by the service) or a merchant's
 * settlement account (commerce only; a merchant is not an agent). `owner` is the receipt's payee.
 */
export type SettlementPayee = { kind: 'agent'; owner: string } | { kind: 'merchant'; owner: string; domain: string };

/**
 * The payee of a Settle: exactly one of `payee_agent_id` and `payee_merchant_domain` (empty
 * counts as absent); the merchant only for controller "commerce"; an agent payee never the payer.
 */
export function settlementPayee(input: {
  controller: SettlementController;
  payer: string;
  payeeAgentId: string | undefined;
  payeeMerchantDomain: string | undefined;
}): SettlementPayee {
  const agent = input.payeeAgentId ?? '';
  const domain = input.payeeMerchantDomain ?? '';
  if (domain === '') {
    if (agent === '') {
      const wanted = input.controller === COMMERCE_CONTROLLER ? 'payee_agent_id or payee_merchant_domain' : 'payee_agent_id';
      throw walletErrors.validationFailed(`${wanted} is required`, { field: 'payee_agent_id' });
    }
    if (agent.length > 255) throw walletErrors.validationFailed('payee_agent_id must be at most 255 characters', { field: 'payee_agent_id' });
    if (agent === input.payer) throw walletErrors.selfTransfer();
    return { kind: 'agent', owner: agent };
  }
  if (agent !== '') {
    throw walletErrors.validationFailed('give payee_agent_id or payee_merchant_domain, not both', { field: 'payee_merchant_domain' });
  }
  if (input.controller !== COMMERCE_CONTROLLER) {
    throw walletErrors.validationFailed('payee_merchant_domain is only for controller "commerce"', { field: 'payee_merchant_domain' });
  }
  const valid = parseMerchantDomain(domain, 'payee_merchant_domain');
  return { kind: 'merchant', owner: merchantOwner(valid), domain: valid };
}
