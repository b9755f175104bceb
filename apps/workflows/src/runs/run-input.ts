import { errors, isSupportedCurrency, MAX_AMOUNT_MICRO, parsePositiveAmount } from '@exchange/platform';
import type { ShardContractSpec, VerificationMode } from '../domain/model';

// CreateRun's request rules (pure). Every refusal is 400 and names the field (`stages[1].shards`);
// the market's own contract rules (title, tags, verifier) are checked here too, so a run that
// passes is one whose shard contracts the market accepts.

export const MAX_STAGES = 20;
export const MAX_SHARDS = 100;
export const MAX_INPUT_REFS = 64;
export const MAX_REF_CHARS = 512;
export const MIN_DEADLINE_SECONDS = 60;
export const MAX_DEADLINE_SECONDS = 2_592_000;
export const DEFAULT_MAX_SHARD_ATTEMPTS = 3;
export const MAX_SHARD_ATTEMPTS = 10;
const TAG = /^[a-z0-9][a-z0-9._-]{0,63}$/;
const MAX_TAGS = 20;
// A stage name travels as the contracts' `stage` label (printable, ≤ 256): kept short and visible.
const STAGE_NAME = /^[\x21-\x7e](?:[\x20-\x7e]{0,62}[\x21-\x7e])?$/;
const TEMPLATE = /^[\x21-\x7e](?:[\x20-\x7e]{0,198}[\x21-\x7e])?$/;

export interface ShardContractInput {
  title: string;
  description: string;
  tags: readonly string[];
  budget?: { amount: string; currency: string };
  /** undefined when the request left it unspecified. */
  verificationMode?: VerificationMode;
  acceptanceCriteria: string;
  verifierId?: string;
  deadlineSeconds: number;
}

export interface StageInput {
  name: string;
  shards: number;
  contract?: ShardContractInput;
}

export interface CreateRunInput {
  ownerAgentId: string;
  template: string;
  stages: readonly StageInput[];
  inputRefs: readonly string[];
  /** 0 = default. */
  maxShardAttempts: number;
  idempotencyKey: string;
}

export interface StageDraft {
  name: string;
  shards: number;
  contract: ShardContractSpec;
}

export interface RunDraft {
  ownerAgentId: string;
  template: string;
  stages: StageDraft[];
  inputRefs: string[];
  maxShardAttempts: number;
  currency: string;
  /** Σ shards × shard budget. */
  budget: bigint;
}

function invalid(field: string, message: string): never {
  throw errors.invalidArgument('validation_failed', message, { field });
}

function text(field: string, value: string, min: number, max: number): string {
  const length = [...value].length;
  if (length < min || length > max) invalid(field, min > 0 ? `${field} must be ${min}-${max} characters` : `${field} must be at most ${max} characters`);
  return value;
}

function intIn(field: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) invalid(field, `${field} must be an integer from ${min} to ${max}`);
  return value;
}

/** Control characters: the market refuses them in a contract's input_refs. */
const CONTROL = /\p{Cc}/u;

/** The input references of a run (or a stage): at most 64 (the market's limit per contract), each 1–512 characters, no control character. */
export function inputRefsOf(refs: readonly string[], field = 'input_refs'): string[] {
  if (refs.length > MAX_INPUT_REFS) invalid(field, `at most ${MAX_INPUT_REFS} ${field}`);
  refs.forEach((r, i) => {
    text(`${field}[${i}]`, r, 1, MAX_REF_CHARS);
    if (CONTROL.test(r)) invalid(`${field}[${i}]`, `${field}[${i}] must not hold control characters`);
  });
  return [...refs];
}

function contractOf(field: string, c: ShardContractInput | undefined): ShardContractSpec {
  if (!c) invalid(field, `${field} is required`);
  const title = text(`${field}.title`, c.title, 1, 200);
  const description = text(`${field}.description`, c.description, 0, 20_000);
  const acceptanceCriteria = text(`${field}.acceptance_criteria`, c.acceptanceCriteria, 1, 20_000);
  if (c.tags.length > MAX_TAGS) invalid(`${field}.tags`, `at most ${MAX_TAGS} tags`);
  for (const t of c.tags) if (!TAG.test(t)) invalid(`${field}.tags`, `tag "${t.slice(0, 80)}" must match ${TAG.source}`);
  if (!c.budget) invalid(`${field}.budget`, `${field}.budget is required`);
  if (!isSupportedCurrency(c.budget.currency)) {
    throw errors.invalidArgument('unsupported_currency', `currency "${c.budget.currency.slice(0, 16)}" is not supported (CREDIT or an ISO 4217 code)`, { field: `${field}.budget` });
  }
  const budget = parsePositiveAmount(c.budget.amount);
  if (c.verificationMode === undefined) invalid(`${field}.verification_mode`, `${field}.verification_mode is required`);
  const verifierId = c.verifierId === undefined || c.verifierId === '' ? null : c.verifierId;
  if (c.verificationMode === 'verifier' && verifierId === null) throw errors.invalidArgument('verifier_required', 'verification_mode verifier needs a verifier_id', { field: `${field}.verifier_id` });
  if (c.verificationMode !== 'verifier' && verifierId !== null) throw errors.invalidArgument('verifier_not_allowed', 'verifier_id is only for verification_mode verifier', { field: `${field}.verifier_id` });
  const deadlineSeconds = intIn(`${field}.deadline_seconds`, c.deadlineSeconds, MIN_DEADLINE_SECONDS, MAX_DEADLINE_SECONDS);
  return {
    title,
    description,
    tags: [...new Set(c.tags)],
    budget,
    currency: c.budget.currency,
    verificationMode: c.verificationMode,
    acceptanceCriteria,
    verifierId,
    deadlineSeconds,
  };
}

/** max_shard_attempts: 0 → 3, else 1–10. */
export function maxAttemptsOf(value: number): number {
  if (value === 0) return DEFAULT_MAX_SHARD_ATTEMPTS;
  return intIn('max_shard_attempts', value, 1, MAX_SHARD_ATTEMPTS);
}

/** The run's budget: Σ shards × shard budget over every stage (400 when it overflows a BIGINT). */
export function runBudget(stages: ReadonlyArray<{ shards: number; contract: { budget: bigint } }>): bigint {
  const total = stages.reduce((sum, s) => sum + BigInt(s.shards) * s.contract.budget, 0n);
  if (total > MAX_AMOUNT_MICRO) throw errors.invalidArgument('invalid_amount', 'the run budget (shards × shard budget) is out of range');
  return total;
}

/** Checks a CreateRun request; returns the run to store. */
export function validateCreateRun(input: CreateRunInput): RunDraft {
  if (input.ownerAgentId === '') invalid('owner_agent_id', 'owner_agent_id is required');
  if (!TEMPLATE.test(input.template)) invalid('template', 'template must be 1-200 printable characters');
  if (input.stages.length < 1 || input.stages.length > MAX_STAGES) invalid('stages', `a run has 1-${MAX_STAGES} stages`);
  const seen = new Set<string>();
  const stages = input.stages.map((s, i): StageDraft => {
    const field = `stages[${i}]`;
    if (!STAGE_NAME.test(s.name)) invalid(`${field}.name`, 'a stage name is 1-64 printable characters without leading or trailing spaces');
    if (seen.has(s.name)) throw errors.invalidArgument('duplicate_stage_name', `two stages are named "${s.name}"`, { field: `${field}.name`, name: s.name });
    seen.add(s.name);
    return { name: s.name, shards: intIn(`${field}.shards`, s.shards, 1, MAX_SHARDS), contract: contractOf(`${field}.contract`, s.contract) };
  });
  const currencies = [...new Set(stages.map((s) => s.contract.currency))];
  if (currencies.length > 1) throw errors.invalidArgument('run_currency_mismatch', `every stage of a run uses one currency; got ${currencies.join(', ')}`, { currencies });
  return {
    ownerAgentId: input.ownerAgentId,
    template: input.template,
    stages,
    inputRefs: inputRefsOf(input.inputRefs),
    maxShardAttempts: maxAttemptsOf(input.maxShardAttempts),
    currency: currencies[0],
    budget: runBudget(stages),
  };
}
