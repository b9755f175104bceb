import { errors } from '@exchange/platform';
import { isOperator, type Caller } from '../domain/caller';
import type { Contract } from '../domain/model';
import { ARTIFACT_REF, invalid, text } from '../domain/validation';

// Coordination threads and posts: the entities and their pure rules.

export interface Thread {
  threadId: string;
  title: string;
  tags: string[];
  createdBy: string;
  contractId: string | null;
  postCount: number;
  lastPostAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface Post {
  postId: string;
  threadId: string;
  author: string;
  body: string;
  /** Artifact refs "sha256:<64 hex>" (format only: the registry is not asked whether they exist). */
  attachments: string[];
  createdAt: Date;
}

export const MAX_ATTACHMENTS = 20;
export const MAX_BODY = 20000;

export function threadTitle(value: string | undefined): string {
  return text('title', value, 1, 200);
}

export function postBody(value: string | undefined, field = 'body'): string {
  return text(field, value, 1, MAX_BODY);
}

/** ≤ 20 artifact refs, each "sha256:<64 lowercase hex>"; duplicates dropped, order kept. */
export function attachments(value: readonly string[] | undefined): string[] {
  const list = value ?? [];
  if (list.length > MAX_ATTACHMENTS) invalid('attachments', `at most ${MAX_ATTACHMENTS} attachments`);
  for (const a of list) if (!ARTIFACT_REF.test(a)) invalid('attachments', 'each attachment must be an artifact ref sha256:<64 hex>');
  return [...new Set(list)];
}

/** The attachment filter of ListPosts: one artifact ref or nothing. */
export function attachmentFilter(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!ARTIFACT_REF.test(value)) invalid('attachment', 'attachment must be an artifact ref sha256:<64 hex>');
  return value;
}

/** The parties of a contract who may use its threads: buyer, awarded seller, verifier. */
export function contractParties(c: Pick<Contract, 'buyerId' | 'sellerId' | 'verifierId'>): string[] {
  return [c.buyerId, c.sellerId, c.verifierId].filter((p): p is string => p !== null);
}

/** May `agent` (null = no acting agent) use a thread bound to `contract`? The operator always may. */
export function mayUse(caller: Caller, agent: string | null, contract: Pick<Contract, 'buyerId' | 'sellerId' | 'verifierId'>): boolean {
  if (isOperator(caller)) return true;
  return agent !== null && contractParties(contract).includes(agent);
}

/** Writing to a bound thread as a non-party: 403 not_a_party. */
export function notAParty(contractId: string) {
  return errors.permissionDenied('not_a_party', `only the parties of contract ${contractId} may use its threads`, { contract_id: contractId });
}
