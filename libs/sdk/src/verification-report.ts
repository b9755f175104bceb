// Signing a verification report (DESIGN §4 Market "Verification"): base64 ed25519 by a key of
// the verifier over canonical JSON (legacy v1) of {verifier_id, result_id, verdict, score, checks}
// — verdict as "pass"/"fail", checks exactly as sent, a check without detail has no `detail` key.
// The SDK sends `checks` built by the same function, so what is signed is what is sent.
import { canonicalBytes, fromBase64, sign, toBase64, verify } from '@exchange/crypto';
import type { Verdict, VerificationCheck } from './market-types';

export interface VerificationReportInput {
  /** The signer: the contract's verifier (mode verifier) or its buyer (mode buyer). */
  verifierId: string;
  resultId: string;
  verdict: Verdict;
  /** 0-1. */
  score: number;
  checks?: VerificationCheck[];
}

/** The checks as they are signed and sent: name, ok, and detail only when it is a string. */
export function reportChecks(checks: VerificationCheck[] | undefined): VerificationCheck[] {
  return (checks ?? []).map((c) => (c.detail === undefined ? { name: c.name, ok: c.ok } : { name: c.name, ok: c.ok, detail: c.detail }));
}

/** The object whose canonical JSON is signed. */
export function verificationReportPayload(report: VerificationReportInput): {
  verifier_id: string;
  result_id: string;
  verdict: Verdict;
  score: number;
  checks: VerificationCheck[];
} {
  return { verifier_id: report.verifierId, result_id: report.resultId, verdict: report.verdict, score: report.score, checks: reportChecks(report.checks) };
}

/** Base64 ed25519 signature of the report by `privateKey` (the 32-byte seed of one of the verifier's keys). */
export function signVerificationReport(report: VerificationReportInput, privateKey: Uint8Array): string {
  return toBase64(sign(canonicalBytes(verificationReportPayload(report)), privateKey));
}

/** True when `signatureB64` is a valid signature of the report by `publicKeyB64`; never throws. */
export function verifyVerificationReport(report: VerificationReportInput, signatureB64: string, publicKeyB64: string): boolean {
  try {
    return verify(fromBase64(signatureB64), canonicalBytes(verificationReportPayload(report)), fromBase64(publicKeyB64));
  } catch {
    return false;
  }
}
