// One generated request, fully determined by the seed and the real ids the run created: the
// bytes to send and which credentials to try, plus a label saying what is hostile about it.
import type { Operation } from './openapi';

/** How the request authenticates: the operator token, an agent signature (SDK), nothing, or forged. */
export type AuthKind = 'operator' | 'agent' | 'none' | 'forged';
export const AUTH_KINDS: readonly AuthKind[] = ['operator', 'agent', 'none', 'forged'];

/** Where the hostility is (one place per request, so a failure names its cause). */
export type Focus = 'valid' | 'body' | 'content' | 'path' | 'query' | 'header' | 'method';

export interface RequestCase {
  op: Operation;
  method: string;
  /** Path and query exactly as written on the request line. */
  target: string;
  /** Extra headers, written verbatim (names and values may be hostile). */
  headers: Array<[string, string]>;
  body: Buffer | null;
  /** null: no Content-Type header. */
  contentType: string | null;
  /** Credentials in order of preference; the runner takes the first whose rate budget allows. */
  auth: AuthKind[];
  /** Which of the run's signing agents signs (agent) or is acted for (operator with actAs). */
  signer: number;
  /** Operator requests: also send X-Agent-Id of the signer. */
  actAs: boolean;
  /** Which forged credential to send (auth 'forged'). */
  forgery: number;
  focus: Focus;
  label: string;
  /** A multipart upload's unique file: if the request is refused, this artifact must not exist. */
  uploadRef: string | null;
}
