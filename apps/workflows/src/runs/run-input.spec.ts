import { runBudget, validateCreateRun, type CreateRunInput, type StageInput } from './run-input';

const stage = (name: string, shards: number, amount = '2.5', currency = 'CREDIT'): StageInput => ({
  name,
  shards,
  contract: { title: 'work', description: '', tags: ['nlp'], budget: { amount, currency }, verificationMode: 'buyer', acceptanceCriteria: 'ok', deadlineSeconds: 3600 },
});
const input = (over: Partial<CreateRunInput> = {}): CreateRunInput => ({
  ownerAgentId: 'x:agent:a',
  template: 'tpl',
  stages: [stage('a', 2), stage('b', 3, '1')],
  inputRefs: [],
  maxShardAttempts: 0,
  idempotencyKey: '',
  ...over,
});
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as { code: string; details?: { field?: string } }).code + ':' + ((err as { details?: { field?: string } }).details?.field ?? '');
  }
  return 'ok';
};

describe('validateCreateRun', () => {
  it('sums the budget over shards and stages and defaults the attempts', () => {
    const d = validateCreateRun(input());
    expect(d.budget).toBe(2n * 2_500_000n + 3n * 1_000_000n);
    expect(d.currency).toBe('CREDIT');
    expect(d.maxShardAttempts).toBe(3);
    expect(runBudget([{ shards: 4, contract: { budget: 5n } }])).toBe(20n);
  });

  it('refuses mixed currencies and duplicate stage names', () => {
    expect(codeOf(() => validateCreateRun(input({ stages: [stage('a', 1), stage('b', 1, '1', 'USD')] })))).toBe('run_currency_mismatch:');
    expect(codeOf(() => validateCreateRun(input({ stages: [stage('a', 1), stage('a', 1)] })))).toBe('duplicate_stage_name:stages[1].name');
  });

  it('bounds stages, shards, deadline, attempts and input refs', () => {
    expect(codeOf(() => validateCreateRun(input({ stages: [] })))).toBe('validation_failed:stages');
    expect(codeOf(() => validateCreateRun(input({ stages: Array.from({ length: 21 }, (_, i) => stage(`s${i}`, 1)) })))).toBe('validation_failed:stages');
    expect(codeOf(() => validateCreateRun(input({ stages: [stage('a', 101)] })))).toBe('validation_failed:stages[0].shards');
    expect(codeOf(() => validateCreateRun(input({ stages: [stage('a', 0)] })))).toBe('validation_failed:stages[0].shards');
    const short = stage('a', 1);
    short.contract!.deadlineSeconds = 59;
    expect(codeOf(() => validateCreateRun(input({ stages: [short] })))).toBe('validation_failed:stages[0].contract.deadline_seconds');
    expect(codeOf(() => validateCreateRun(input({ maxShardAttempts: 11 })))).toBe('validation_failed:max_shard_attempts');
    expect(codeOf(() => validateCreateRun(input({ inputRefs: Array.from({ length: 65 }, () => 'r') })))).toBe('validation_failed:input_refs');
    expect(codeOf(() => validateCreateRun(input({ stages: [stage('a', 1, '0')] })))).toBe('invalid_amount:');
    expect(codeOf(() => validateCreateRun(input({ inputRefs: ['ok', 'bad\u0007'] })))).toBe('validation_failed:input_refs[1]');
  });

  it("checks the market's contract rules up front", () => {
    const verifier = stage('a', 1);
    verifier.contract!.verificationMode = 'verifier';
    expect(codeOf(() => validateCreateRun(input({ stages: [verifier] })))).toBe('verifier_required:stages[0].contract.verifier_id');
    const noMode = stage('a', 1);
    noMode.contract!.verificationMode = undefined;
    expect(codeOf(() => validateCreateRun(input({ stages: [noMode] })))).toBe('validation_failed:stages[0].contract.verification_mode');
    expect(codeOf(() => validateCreateRun(input({ stages: [stage('a', 1, '1', 'XXX')] })))).toBe('unsupported_currency:stages[0].contract.budget');
  });
});
