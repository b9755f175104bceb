import { formatAmount } from '@exchange/platform';
import type { VerificationMode } from '../domain/model';
import { addIsoDuration } from './duration';
import type { ContractTemplate } from './model';

/**
 * The contract fields a template may supply, as the request gave them: '' / [] / undefined /
 * null mean "not given" (proto3 cannot tell an empty string from an absent one).
 */
export interface ContractFields {
  description: string;
  tags: readonly string[];
  acceptanceCriteria: string;
  verificationMode: VerificationMode | null;
  budget: { amount: string; currency: string } | undefined;
  deadline: Date | undefined;
  workProductTemplateId: string | null;
}

/**
 * Fills what the request left out from the template; whatever the request gave wins. Without a
 * template the fields come back unchanged (the usual required-field checks then apply).
 * deadline = now + the template's default_deadline; budget = its suggested budget (when it has one).
 */
export function inheritFromTemplate(given: ContractFields, template: ContractTemplate | null, now: Date): ContractFields {
  if (template === null) return { ...given, tags: [...given.tags] };
  const suggested = template.suggestedBudget;
  return {
    description: given.description !== '' ? given.description : template.description,
    tags: given.tags.length > 0 ? [...given.tags] : [...template.tags],
    acceptanceCriteria: given.acceptanceCriteria !== '' ? given.acceptanceCriteria : template.acceptanceCriteria,
    verificationMode: given.verificationMode ?? template.defaultVerificationMode,
    budget: given.budget ?? (suggested ? { amount: formatAmount(suggested.amount), currency: suggested.currency } : undefined),
    deadline: given.deadline ?? addIsoDuration(now, template.defaultDeadline),
    workProductTemplateId: given.workProductTemplateId ?? template.workProductTemplateId,
  };
}

/**
 * A contract is a sandbox contract in a sandbox exchange, and on mainnet when its buyer is still
 * SANDBOX_UNVERIFIED (its credits come from the faucet): the price index leaves them out by default.
 */
export function isSandboxContract(exchangeEnv: 'sandbox' | 'mainnet' | undefined, buyerSandboxUnverified: boolean): boolean {
  return exchangeEnv === 'sandbox' || buyerSandboxUnverified;
}
