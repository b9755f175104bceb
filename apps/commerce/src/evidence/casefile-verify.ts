import { verifyDocket, type CasefileCheck, type VerifyResult } from '@exchange/casefile';
import { errors } from '@exchange/platform';
import { contentHash, GENESIS_HASH, linkHash } from './evidence-chain';

// Verifying a commerce casefile: libs/casefile's checks (shape, signature, every entry's hash),
// then `evidence_chain` — the evidence entries, in docket order, chain from 64 zeros to the
// subject's evidence_head — and, when the caller names a session, `subject` (the docket is about
// it). Never throws for a parsed docket: every problem is a failing check.

/** Deeper than this is no docket commerce writes (and canonical JSON recurses per level). */
export const MAX_DOCKET_DEPTH = 64;
const HEX64 = /^[0-9a-f]{64}$/;

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function depthOf(root: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[root, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop() as [unknown, number];
    if (typeof value !== 'object' || value === null) continue;
    if (depth > max) max = depth;
    if (max > MAX_DOCKET_DEPTH) return max;
    for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
  return max;
}

/** docket_json as a value; not JSON, or nested past MAX_DOCKET_DEPTH → 400 casefile_unreadable. */
export function parseDocketJson(text: string): unknown {
  let docket: unknown;
  try {
    docket = JSON.parse(text);
  } catch {
    throw errors.invalidArgument('casefile_unreadable', 'docket_json is not JSON');
  }
  if (depthOf(docket) > MAX_DOCKET_DEPTH) throw errors.invalidArgument('casefile_unreadable', `docket_json is nested deeper than ${MAX_DOCKET_DEPTH} levels`);
  return docket;
}

function chainProblem(content: unknown, index: number, prev: string, sessionId: unknown): { problem: string } | { hash: string } {
  if (!isObject(content)) return { problem: 'content is not an object' };
  if (content['seq'] !== index + 1) return { problem: `seq is ${String(content['seq'])}, expected ${index + 1}` };
  if (content['commerce_session_id'] !== sessionId) return { problem: 'belongs to another session' };
  if (content['prev_hash'] !== prev) return { problem: 'prev_hash is not the previous item’s hash' };
  let digest: string;
  try {
    digest = contentHash(content['content']);
  } catch (err) {
    return { problem: `content cannot be canonicalized: ${(err as Error).message}` };
  }
  if (content['content_sha256'] !== digest) return { problem: 'content does not hash to content_sha256' };
  const hash = linkHash(prev, digest);
  if (content['hash'] !== hash) return { problem: 'hash is not sha256(prev_hash || content_sha256)' };
  return { hash };
}

/** `evidence_chain`: the evidence entries chain from 64 zeros to subject.evidence_head. */
export function evidenceChainCheck(docket: unknown): CasefileCheck {
  const ref = 'evidence_chain';
  const subject = isObject(docket) && isObject(docket['subject']) ? docket['subject'] : {};
  const head = subject['evidence_head'];
  if (typeof head !== 'string' || !HEX64.test(head)) return { ref, ok: false, reason: 'subject.evidence_head is not 64 lowercase hex characters' };
  const entries = isObject(docket) && Array.isArray(docket['entries']) ? (docket['entries'] as unknown[]) : [];
  const evidence = entries.filter((e): e is Obj => isObject(e) && e['kind'] === 'evidence');
  let prev = GENESIS_HASH;
  for (const [index, entry] of evidence.entries()) {
    const link = chainProblem(entry['content'], index, prev, subject['commerce_session_id']);
    if ('problem' in link) return { ref, ok: false, reason: `broken at ${String(entry['ref'])} (item ${index + 1}): ${link.problem}` };
    prev = link.hash;
  }
  if (prev !== head) return { ref, ok: false, reason: `the ${evidence.length} evidence items reach ${prev}, not subject.evidence_head` };
  return { ref, ok: true };
}

function subjectCheck(docket: unknown, sessionId: string): CasefileCheck {
  const subject = isObject(docket) && isObject(docket['subject']) ? docket['subject'] : {};
  const named = subject['commerce_session_id'];
  return named === sessionId
    ? { ref: 'subject', ok: true }
    : { ref: 'subject', ok: false, reason: `the docket is about ${typeof named === 'string' ? named : 'no checkout session'}, not ${sessionId}` };
}

export interface CommerceVerifyOptions {
  /** Base64 ed25519 exchange key the signature must verify with. */
  trustedPublicKey: string;
  /** The session the caller expects the docket to be about (empty: any). */
  sessionId: string;
}

export function verifyCommerceDocket(docket: unknown, opts: CommerceVerifyOptions): VerifyResult {
  let result: VerifyResult;
  try {
    result = verifyDocket(docket, { trustedPublicKey: opts.trustedPublicKey });
  } catch (err) {
    // verifyDocket promises not to throw; a value it cannot canonicalize still must not make a 500.
    const docketId = isObject(docket) && typeof docket['docket_id'] === 'string' ? docket['docket_id'] : '';
    result = { valid: false, docket_id: docketId, checks: [{ ref: 'docket', ok: false, reason: `docket cannot be verified: ${(err as Error).message}` }] };
  }
  const checks = [...result.checks, evidenceChainCheck(docket)];
  if (opts.sessionId !== '') checks.push(subjectCheck(docket, opts.sessionId));
  return { valid: checks.every((c) => c.ok), docket_id: result.docket_id, checks };
}
