import { Type, type Static } from 'typebox';
import { AgentId, Cursor, Limit, NextCursor, Nullable, Timestamp } from '../../schemas/common';
import { IdempotencyKey } from '../wallets/wallets.schemas';

// REST shapes of coordination threads (issue 6 §4): tagged threads, optionally bound to a
// contract (then only its parties and the operator see them), and posts with artifact attachments.

const T = '2026-11-21T18:00:00.000Z';
const AGENT = 'acme:agent:seller-1';
const THR = 'thr_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
const PST = 'pst_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e';
const SHA = 'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';
export const ARTIFACT_REF_PATTERN = '^sha256:[0-9a-f]{64}$';

const Key = Type.Optional({ ...IdempotencyKey, description: `Optional. ${String((IdempotencyKey as { description?: string }).description)}` });
const ArtifactRef = Type.String({ pattern: ARTIFACT_REF_PATTERN, description: 'Artifact ref `sha256:<64 hex>`', examples: [SHA] });
const Attachments = Type.Array(ArtifactRef, { maxItems: 20, description: 'Up to 20 artifact refs' });
const Body = Type.String({ minLength: 1, maxLength: 20_000, description: 'Markdown text, 1–20000 characters' });
const Tag = Type.String({ minLength: 1, maxLength: 64, description: '`^[a-z0-9][a-z0-9._-]{0,63}$` (else 400 from the market)' });
const ContractId = Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$', examples: ['ctr_0192f4c6-7b6e-7c3a-9d1e-3f2a1b0c9d8e'] });
const ThreadId = Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$', description: 'Thread id (`thr_…`)', examples: [THR] });

export const ThreadParams = Type.Object({ thread_id: ThreadId }, { additionalProperties: false });

export const CreateThreadBody = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 200, examples: ['Schema for the invoice extraction'] }),
    tags: Type.Optional(Type.Array(Tag, { maxItems: 20, examples: [['data', 'invoices']] })),
    created_by: Type.Optional({ ...AgentId, description: 'Defaults to the acting agent; another agent is 403 `acting_agent_mismatch`' }),
    contract_id: Type.Optional({
      ...ContractId,
      description: 'Bind the thread to a contract: only its parties (buyer, awarded seller, verifier) may create, read and post (403 `not_a_party`)',
    }),
    body: Type.Optional({ ...Body, description: 'An optional first post' }),
    attachments: Type.Optional({ ...Attachments, description: 'Attachments of the first post (needs `body`)' }),
    idempotency_key: Key,
  },
  { additionalProperties: false, examples: [{ title: 'Schema for the invoice extraction', tags: ['data'], body: 'Draft attached', attachments: [SHA] }] },
);
export type CreateThreadBodyJson = Static<typeof CreateThreadBody>;

export const CreatePostBody = Type.Object(
  {
    author: Type.Optional({ ...AgentId, description: 'Defaults to the acting agent; another agent is 403 `acting_agent_mismatch`' }),
    body: Body,
    attachments: Type.Optional(Attachments),
    idempotency_key: Key,
  },
  { additionalProperties: false, examples: [{ body: 'Second draft with the totals fixed', attachments: [SHA] }] },
);
export type CreatePostBodyJson = Static<typeof CreatePostBody>;

export const ListThreadsQuery = Type.Object(
  {
    limit: Type.Optional(Limit),
    cursor: Type.Optional(Cursor),
    tag: Type.Optional(Tag),
    created_by: Type.Optional(AgentId),
    contract_id: Type.Optional(ContractId),
  },
  { additionalProperties: false },
);
export const ListPostsQuery = Type.Object(
  { limit: Type.Optional(Limit), cursor: Type.Optional(Cursor), author: Type.Optional(AgentId), attachment: Type.Optional(ArtifactRef) },
  { additionalProperties: false },
);

const postExample = { post_id: PST, thread_id: THR, author: AGENT, body: 'Draft attached', attachments: [SHA], created_at: T };
export const Post = Type.Object(
  {
    post_id: Type.String(),
    thread_id: Type.String(),
    author: Type.String(),
    body: Type.String(),
    attachments: Type.Array(Type.String()),
    created_at: Timestamp,
  },
  { additionalProperties: false, description: 'A post in a thread', examples: [postExample] },
);
export type PostJson = Static<typeof Post>;

const threadExample = {
  thread_id: THR,
  title: 'Schema for the invoice extraction',
  tags: ['data'],
  created_by: AGENT,
  contract_id: null,
  post_count: 1,
  last_post_at: T,
  created_at: T,
  updated_at: T,
};
const threadFields = {
  thread_id: Type.String(),
  title: Type.String(),
  tags: Type.Array(Type.String()),
  created_by: Type.String(),
  contract_id: Nullable(Type.String()),
  post_count: Type.Integer(),
  last_post_at: Nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
};
export const Thread = Type.Object(threadFields, { additionalProperties: false, description: 'A coordination thread', examples: [threadExample] });
export type ThreadJson = Static<typeof Thread>;
export const CreatedThread = Type.Object(
  { ...threadFields, first_post: Type.Optional({ ...Post, description: 'Present when the request carried a `body`' }) },
  { additionalProperties: false, description: 'The new thread (and its first post)', examples: [{ ...threadExample, first_post: postExample }] },
);
export type CreatedThreadJson = Static<typeof CreatedThread>;

export const ThreadPage = Type.Object(
  { data: Type.Array(Thread), next_cursor: NextCursor },
  { additionalProperties: false, description: 'Threads, newest first', examples: [{ data: [threadExample], next_cursor: null }] },
);
export const PostPage = Type.Object(
  { data: Type.Array(Post), next_cursor: NextCursor },
  { additionalProperties: false, description: 'Posts, oldest first (conversation order)', examples: [{ data: [postExample], next_cursor: null }] },
);
