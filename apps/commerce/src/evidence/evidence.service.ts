import { docketJson, type VerifyResult } from '@exchange/casefile';
import type { CommerceRuntime } from '../service/runtime';
import { artifactPage, type ArtifactPage } from './artifact-page';
import { commerceDocket } from './commerce-docket';
import { parseDocketJson, verifyCommerceDocket } from './casefile-verify';
import { assertCanRead, chainHead, sessionIdOf, sessionNotFound, type EvidenceActor, type SessionHead } from './evidence-access';
import { findSessionHead, inSnapshot, loadCasefileSources } from './evidence-sources.repo';
import { listEvidence } from './evidence.repo';
import type pg from 'pg';

export type EvidenceDeps = Pick<CommerceRuntime, 'pool' | 'exchangeSigner' | 'clock'>;

/** The evidence area: a session's chain (artifacts) and its exchange-signed casefile. */
export class EvidenceService {
  constructor(private readonly deps: EvidenceDeps) {}

  /** The session the actor may read (400 / 404 checkout_session_not_found / 403 not_session_buyer). */
  private async readable(db: pg.PoolClient, actor: EvidenceActor | undefined, requestedId: string): Promise<SessionHead> {
    const { id, wellFormed } = sessionIdOf(requestedId);
    const session = wellFormed ? await findSessionHead(db, id) : null;
    if (!session) throw sessionNotFound(id);
    assertCanRead(actor, session);
    return session;
  }

  listArtifacts(actor: EvidenceActor | undefined, sessionId: string, page: { limit?: number; cursor?: string } | undefined): Promise<ArtifactPage> {
    return inSnapshot(this.deps.pool, async (db) => {
      const session = await this.readable(db, actor, sessionId);
      const all = await listEvidence(db, session.commerceSessionId);
      return artifactPage(all, { seq: session.evidenceSeq, hash: chainHead(session) }, page);
    });
  }

  /** The session's signed docket as canonical JSON text. */
  async exportCasefile(actor: EvidenceActor | undefined, sessionId: string): Promise<string> {
    const sources = await inSnapshot(this.deps.pool, async (db) => loadCasefileSources(db, await this.readable(db, actor, sessionId)));
    return docketJson(commerceDocket(sources, this.deps.exchangeSigner.privateKey, this.deps.clock()));
  }

  /**
   * Verifies `docketJson` (any caller may: it reads nothing stored), or — when absent — the
   * session's casefile exported now (buyer or operator). The key defaults to this exchange's.
   */
  async verifyCasefile(actor: EvidenceActor | undefined, sessionId: string, docketJsonText: string | undefined, exchangePublicKey: string | undefined): Promise<VerifyResult> {
    const text = docketJsonText === undefined || docketJsonText === '' ? await this.exportCasefile(actor, sessionId) : docketJsonText;
    const trustedPublicKey = exchangePublicKey === undefined || exchangePublicKey === '' ? this.deps.exchangeSigner.publicKey : exchangePublicKey;
    return verifyCommerceDocket(parseDocketJson(text), { trustedPublicKey, sessionId });
  }
}
