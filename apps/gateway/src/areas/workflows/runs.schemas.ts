import { workflowsV1Wire } from '@exchange/proto';
import { Type, type Static } from 'typebox';
import { BUYER, CTR, Description, Key, MoneyOut, PageFields, SELLER, T, Tags, Title } from '../../lib/market/market-kit';
import { CONTRACT_STATUSES, Money, VERIFICATION_MODES } from '../../lib/market/market.schemas';
import { AgentId, NextCursor, Nullable, StringEnum, Timestamp } from '../../schemas/common';

// REST shapes of workflow runs, their shard contracts and tasks (DESIGN §4 Workflows). Workflows
// owns the rules and their codes (`duplicate_stage_name`, `run_currency_mismatch`,
// `insufficient_funds`, …); here the outline, sizes and the integer bounds of the proto.

export const RUN = 'run_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
export const TSK = 'tsk_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';

/** A server-made id in a path or filter (`run_…`, `tsk_…`, `sub_…`, `evt_…`). */
export const WorkflowsId = (description: string, example: string) =>
  Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$', description, examples: [example] });
export const RunId = WorkflowsId('Workflow run id (`run_…`)', RUN);
const StageName = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$', description: 'Stage name, unique in its run', examples: ['extract'] });
const Template = Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$', description: 'The kind of run (your own name for it; a list filter)', examples: ['translate-review'] });
const Ref = Type.String({ minLength: 1, maxLength: 512, description: 'A reference: an artifact ref, an object id, `result:<result_id>`, a URL' });
const Refs = (description: string) => Type.Array(Ref, { maxItems: 64, description });

export const RunParams = Type.Object({ workflow_run_id: RunId }, { additionalProperties: false });

const contractSpecExample = {
  title: 'Translate one chunk to French',
  description: 'Keep the markdown',
  tags: ['translation'],
  budget: { amount: '5', currency: 'CREDIT' },
  verification_mode: 'buyer',
  acceptance_criteria: 'Every sentence translated',
  deadline_seconds: 86400,
};

export const ShardContractSpecBody = Type.Object(
  {
    title: Title,
    description: Type.Optional(Description),
    tags: Type.Optional(Tags),
    budget: { ...Money, description: 'Budget of ONE shard contract; every stage of a run uses one currency (else 400 `run_currency_mismatch`)' },
    verification_mode: StringEnum(VERIFICATION_MODES, { description: '`buyer` (the owner signs the report), `verifier` (needs `verifier_id`), `auto` (accepted on delivery)' }),
    acceptance_criteria: Type.String({ minLength: 1, maxLength: 20_000, description: 'What each shard result must satisfy' }),
    verifier_id: Type.Optional({ ...AgentId, description: 'Required with mode `verifier`' }),
    deadline_seconds: Type.Integer({ minimum: 60, maximum: 2_592_000, description: 'Each shard contract’s deadline: its posting time plus this (60 s – 30 days)' }),
  },
  { additionalProperties: false, description: 'What each shard contract of a stage asks for' },
);

export const CreateRunBody = Type.Object(
  {
    owner_agent_id: Type.Optional({ ...AgentId, description: 'The buyer of every shard contract; defaults to the acting agent (another agent: 403 `acting_agent_mismatch`); required for the operator' }),
    template: Template,
    stages: Type.Array(
      Type.Object(
        {
          name: StageName,
          shards: Type.Integer({ minimum: 1, maximum: 100, description: 'Shard contracts posted for this stage (1–100)' }),
          contract: ShardContractSpecBody,
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 20, description: 'Run one after the other; a stage starts when every shard of the previous one settled' },
    ),
    input_refs: Type.Optional(Refs('Inputs of the first stage (at most 64)')),
    max_shard_attempts: Type.Optional(Type.Integer({ minimum: 1, maximum: 10, description: 'Contracts posted per shard before the run fails (default 3)' })),
    idempotency_key: Key,
  },
  {
    additionalProperties: false,
    examples: [
      {
        template: 'translate-review',
        stages: [
          { name: 'translate', shards: 2, contract: contractSpecExample },
          { name: 'review', shards: 1, contract: { ...contractSpecExample, title: 'Review the translation' } },
        ],
        input_refs: ['sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'],
        max_shard_attempts: 2,
        idempotency_key: 'run-2026-11-25-001',
      },
    ],
  },
);
export type CreateRunBodyJson = Static<typeof CreateRunBody>;

export const ListRunsQuery = Type.Object(
  {
    ...PageFields,
    template: Type.Optional(Template),
    agent: Type.Optional({ ...AgentId, description: 'The runs of this owner' }),
    status: Type.Optional(StringEnum(workflowsV1Wire.runStatus.names)),
  },
  { additionalProperties: false },
);

export const ListRunContractsQuery = Type.Object(
  {
    ...PageFields,
    stage: Type.Optional(StageName),
    shard: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, description: 'Shard index in its stage' })),
    status: Type.Optional(StringEnum(CONTRACT_STATUSES, { description: 'The market contract status' })),
  },
  { additionalProperties: false },
);

export const ListTasksQuery = Type.Object(
  {
    ...PageFields,
    run: Type.Optional({ ...RunId, description: 'The tasks of this run' }),
    stage: Type.Optional(StageName),
    status: Type.Optional(StringEnum(workflowsV1Wire.taskStatus.names)),
  },
  { additionalProperties: false },
);

// ─── resources ──────────────────────────────────────────────────────────────────────────────

const ShardContractSpec = Type.Object(
  {
    title: Type.String(),
    description: Type.String(),
    tags: Type.Array(Type.String()),
    budget: MoneyOut,
    verification_mode: StringEnum(VERIFICATION_MODES),
    acceptance_criteria: Type.String(),
    verifier_id: Nullable(Type.String()),
    deadline_seconds: Type.Integer(),
  },
  { additionalProperties: false },
);

const stageExample = {
  name: 'translate',
  index: 0,
  shards: 2,
  contract: { ...contractSpecExample, verifier_id: null },
  status: 'running',
  settled_shards: 1,
  input_refs: ['sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'],
  output_refs: [],
  started_at: T,
  completed_at: null,
};

export const WorkflowStage = Type.Object(
  {
    name: Type.String(),
    index: Type.Integer({ description: '0, 1, … in run order' }),
    shards: Type.Integer(),
    contract: ShardContractSpec,
    status: StringEnum(workflowsV1Wire.stageStatus.names),
    settled_shards: Type.Integer(),
    input_refs: Type.Array(Type.String(), { description: 'The run’s input_refs for the first stage, else the previous stage’s output_refs' }),
    output_refs: Type.Array(Type.String(), { description: 'Result references of the settled shards, in shard order' }),
    started_at: Nullable(Timestamp),
    completed_at: Nullable(Timestamp),
  },
  { additionalProperties: false, description: 'One stage of a workflow run', examples: [stageExample] },
);

const runExample = {
  workflow_run_id: RUN,
  template: 'translate-review',
  owner_agent_id: BUYER,
  status: 'running',
  stages: [stageExample],
  input_refs: stageExample.input_refs,
  current_stage: 0,
  max_shard_attempts: 2,
  budget: { amount: '10', currency: 'CREDIT' },
  spent: { amount: '5', currency: 'CREDIT' },
  committed: { amount: '5', currency: 'CREDIT' },
  failure_reason: null,
  output_refs: [],
  created_at: T,
  updated_at: T,
  completed_at: null,
};

export const WorkflowRun = Type.Object(
  {
    workflow_run_id: Type.String(),
    template: Type.String(),
    owner_agent_id: Type.String(),
    status: StringEnum(workflowsV1Wire.runStatus.names),
    stages: Type.Array(WorkflowStage),
    input_refs: Type.Array(Type.String()),
    current_stage: Type.Integer({ description: 'Index of the stage running now (or the last one reached)' }),
    max_shard_attempts: Type.Integer(),
    budget: { ...MoneyOut, description: 'Σ shards × shard budget: the most the run may commit' },
    spent: { ...MoneyOut, description: 'Prices of the settled shard contracts' },
    committed: { ...MoneyOut, description: 'Held in escrow now by awarded, unsettled shard contracts' },
    failure_reason: Nullable(Type.String()),
    output_refs: Type.Array(Type.String(), { description: 'The last stage’s output_refs once the run completed' }),
    created_at: Timestamp,
    updated_at: Timestamp,
    completed_at: Nullable(Timestamp),
  },
  { additionalProperties: false, description: 'A workflow run: pending → running → completed | failed | cancelled', examples: [runExample] },
);
export type WorkflowRunJson = Static<typeof WorkflowRun>;

export const WorkflowRunPage = Type.Object(
  { data: Type.Array(WorkflowRun), next_cursor: NextCursor },
  { additionalProperties: false, description: 'Runs, newest first', examples: [{ data: [runExample], next_cursor: null }] },
);

const shardContractExample = {
  contract_id: CTR,
  workflow_run_id: RUN,
  stage: 'translate',
  stage_index: 0,
  shard: 0,
  attempt: 1,
  task_id: TSK,
  status: 'awarded',
  seller_id: SELLER,
  price: { amount: '4.5', currency: 'CREDIT' },
  created_at: T,
  updated_at: T,
};

export const WorkflowShardContract = Type.Object(
  {
    contract_id: Type.String({ description: 'The market contract (GET /v1/contracts/{contract_id})' }),
    workflow_run_id: Type.String(),
    stage: Type.String(),
    stage_index: Type.Integer(),
    shard: Type.Integer(),
    attempt: Type.Integer({ description: '1 for the first contract of the shard, +1 per re-post' }),
    task_id: Type.String(),
    status: StringEnum(CONTRACT_STATUSES, { description: 'The market contract status as the run last saw it' }),
    seller_id: Nullable(Type.String()),
    price: Nullable(MoneyOut),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false, description: 'A shard contract of a run', examples: [shardContractExample] },
);
export type WorkflowShardContractJson = Static<typeof WorkflowShardContract>;

export const WorkflowShardContractPage = Type.Object(
  { data: Type.Array(WorkflowShardContract), next_cursor: NextCursor },
  { additionalProperties: false, description: 'A run’s shard contracts', examples: [{ data: [shardContractExample], next_cursor: null }] },
);

const taskExample = {
  task_id: TSK,
  workflow_run_id: RUN,
  stage: 'translate',
  stage_index: 0,
  shard: 0,
  attempt: 1,
  status: 'awarded',
  contract_id: CTR,
  contract_status: 'awarded',
  seller_id: SELLER,
  price: { amount: '4.5', currency: 'CREDIT' },
  input_refs: stageExample.input_refs,
  result_refs: [],
  failure_reason: null,
  created_at: T,
  updated_at: T,
  settled_at: null,
};

export const WorkflowTask = Type.Object(
  {
    task_id: Type.String(),
    workflow_run_id: Type.String(),
    stage: Type.String(),
    stage_index: Type.Integer(),
    shard: Type.Integer(),
    attempt: Type.Integer(),
    status: StringEnum(workflowsV1Wire.taskStatus.names),
    contract_id: Nullable(Type.String(), { description: 'Set once the contract is posted' }),
    contract_status: Nullable(StringEnum(CONTRACT_STATUSES)),
    seller_id: Nullable(Type.String()),
    price: Nullable(MoneyOut),
    input_refs: Type.Array(Type.String()),
    result_refs: Type.Array(Type.String()),
    failure_reason: Nullable(Type.String()),
    created_at: Timestamp,
    updated_at: Timestamp,
    settled_at: Nullable(Timestamp),
  },
  { additionalProperties: false, description: 'One attempt at one shard: the mirror of its shard contract', examples: [taskExample] },
);
export type WorkflowTaskJson = Static<typeof WorkflowTask>;

export const WorkflowTaskPage = Type.Object(
  { data: Type.Array(WorkflowTask), next_cursor: NextCursor },
  { additionalProperties: false, description: 'Tasks', examples: [{ data: [taskExample], next_cursor: null }] },
);

export const ExportRunBody = Type.Object({}, { additionalProperties: false, examples: [{}] });

const docketExample = {
  docket_id: 'dkt_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e',
  subject: { workflow_run_id: RUN, owner_agent_id: BUYER },
  entries: [{ kind: 'workflow_run', ref: RUN, sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', content: { workflow_run_id: RUN } }],
  created_at: T,
  exchange_pubkey: 'iojj3XQJ8ZX9UtstPLpdcspnCb8dlBIb83SIAbQPb1w=',
  signature: 'Zm9v…',
};

export const WorkflowRunDocket = Type.Object(
  {
    docket: Type.Object({}, { additionalProperties: true, description: 'The docket (libs/casefile shape), signed by the exchange key; verify it with POST /v1/casefiles/verify {docket}' }),
  },
  { additionalProperties: false, description: 'The run’s casefile docket: the run, its tasks and every shard contract’s docket entries', examples: [{ docket: docketExample }] },
);
