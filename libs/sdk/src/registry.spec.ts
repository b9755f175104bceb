// The registry areas against a recording HTTP server: paths, bodies, signatures (checked with
// node:crypto and a hand-written canonical form, not @exchange/crypto), downloads and errors.
import { artifactEntry, recordEntry, signDocket, writeArchive } from '@exchange/casefile';
import { Readable } from 'node:stream';
import { ExchangeClient } from './client';
import { ExchangeApiError } from './errors';
import { casefileArchiveBytes, objectIdOf, verifyCasefileArchive } from './index';
import { nodeKeyPair, nodeSha256Hex, nodeVerify } from './testing/node-ed25519';
import { json, problem, startRecordingServer, type RecordingServer } from './testing/recording-server';

const AGENT = 'acme:agent:seller';

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

describe('registry APIs', () => {
  let server: RecordingServer;
  const keys = nodeKeyPair();
  let agent: ExchangeClient;
  let operator: ExchangeClient;
  beforeEach(async () => {
    server = await startRecordingServer();
    agent = new ExchangeClient({ baseUrl: server.url, agent: { agentId: AGENT, privateKey: keys.privateKey } });
    operator = new ExchangeClient({ baseUrl: server.url, operatorToken: 'op-secret' });
  });
  afterEach(() => server.close());

  const last = () => server.requests.at(-1)!;
  const lastBody = () => JSON.parse(last().body.toString('utf8'));
  const expectAgentSigned = () => {
    const req = last();
    const message = canonical({ agent_id: AGENT, body_sha256: nodeSha256Hex(req.body), method: req.method, nonce: req.headers['x-agent-nonce'], path: req.url, timestamp: req.headers['x-agent-timestamp'] });
    expect(req.headers['x-agent-id']).toBe(AGENT);
    expect(nodeVerify(message, String(req.headers['x-agent-signature']), keys.publicKey)).toBe(true);
  };

  describe('objects', () => {
    const payload = { claim: { quality: 'good' }, subject_ref: 'ctr_1', z: [1, 'é'] };

    it('should store an object signed over the canonical payload by the client agent', async () => {
      server.respond(json(201, { object_id: 'sha256:x' }));
      await agent.objects.store({ type: 'attestation', payload, tags: ['review'] });
      expect(last().method).toBe('POST');
      expect(last().url).toBe('/v1/objects');
      const body = lastBody();
      expect(Object.keys(body).sort()).toEqual(['payload', 'signature', 'signer_agent_id', 'tags', 'type']);
      expect(body.signer_agent_id).toBe(AGENT);
      expect(nodeVerify(canonical(payload), body.signature, keys.publicKey)).toBe(true);
      expectAgentSigned();
    });

    it('should sign with an explicit signer for an operator client, or send a given signature', async () => {
      const other = nodeKeyPair();
      server.respond(json(201, {}), json(200, {}));
      await operator.objects.store({ type: 'note', payload: 'hi', visibility: 'parties', parties: ['b:agent:x'], signer: { agentId: 'b:agent:y', privateKey: other.privateKey } });
      const first = lastBody();
      expect(first).toMatchObject({ type: 'note', payload: 'hi', visibility: 'parties', parties: ['b:agent:x'], signer_agent_id: 'b:agent:y' });
      expect(nodeVerify('"hi"', first.signature, other.publicKey)).toBe(true);
      expect(last().headers['authorization']).toBe('Bearer op-secret');
      await operator.objects.store({ type: 'note', payload: 'hi', signature: 'c2ln' });
      expect(lastBody()).toEqual({ type: 'note', payload: 'hi', signature: 'c2ln' });
    });

    it('should refuse to store without any way to sign', async () => {
      await expect(operator.objects.store({ type: 'note', payload: 1 })).rejects.toThrow(/objects.store: pass `signer`/);
      expect(server.requests).toHaveLength(0);
    });

    it('should get by object id (colon kept) and list with filters', async () => {
      server.respond(json(200, { object_id: 'sha256:ab' }), json(200, { data: [{ object_id: 'sha256:1' }], next_cursor: 'c2' }), json(200, { data: [{ object_id: 'sha256:2' }], next_cursor: null }));
      expect(await agent.objects.get('sha256:ab')).toEqual({ object_id: 'sha256:ab' });
      expect(last().url).toBe('/v1/objects/sha256:ab');
      const ids: string[] = [];
      for await (const o of agent.objects.iterate({ type: 'attestation', tag: 'x', limit: 1 })) ids.push(o.object_id);
      expect(ids).toEqual(['sha256:1', 'sha256:2']);
      expect(server.requests.slice(1).map((r) => r.url)).toEqual(['/v1/objects?type=attestation&tag=x&limit=1', '/v1/objects?type=attestation&tag=x&limit=1&cursor=c2']);
    });

    it('should compute object ids as the registry does', () => {
      expect(objectIdOf('note', { b: 2, a: 1 }, AGENT)).toBe(`sha256:${nodeSha256Hex(`{"payload":{"a":1,"b":2},"signer_agent_id":"${AGENT}","type":"note"}`)}`);
    });
  });

  describe('artifacts', () => {
    const ref = `sha256:${nodeSha256Hex('hello')}`;

    it('should upload as JSON base64 with snake_case metadata (stream input)', async () => {
      server.respond(json(201, { artifact_ref: ref }));
      await agent.artifacts.upload({
        content: Readable.from([Buffer.from('hel'), Buffer.from('lo')]),
        mediaType: 'text/plain',
        contractId: 'ctr_1',
        parties: ['b:agent:x'],
        envelope: { algorithm: 'x25519-xsalsa20-poly1305', recipientKeyIds: ['k1'] },
      });
      expect(last().url).toBe('/v1/artifacts');
      expect(last().headers['content-type']).toBe('application/json');
      expect(lastBody()).toEqual({
        content_base64: Buffer.from('hello').toString('base64'),
        media_type: 'text/plain',
        contract_id: 'ctr_1',
        parties: ['b:agent:x'],
        envelope: { algorithm: 'x25519-xsalsa20-poly1305', recipient_key_ids: ['k1'] },
      });
      expectAgentSigned();
    });

    it('should upload as multipart: fields first, then the file part; signed over the raw body', async () => {
      server.respond(json(201, { artifact_ref: ref }));
      const bytes = Buffer.from([0, 1, 2, 255, 13, 10, 45, 45]);
      await agent.artifacts.upload({ content: bytes, mediaType: 'application/octet-stream', access: 'public', parties: ['p1', 'p2'], envelope: { algorithm: 'a', recipientKeyIds: ['k'], nonce: 'n' }, encoding: 'multipart', filename: 'x.bin' });
      const req = last();
      expect(String(req.headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
      const form = await new Response(req.body, { headers: { 'content-type': String(req.headers['content-type']) } }).formData();
      expect([...form.keys()]).toEqual(['media_type', 'access', 'parties', 'parties', 'envelope', 'file']);
      expect(form.getAll('parties')).toEqual(['p1', 'p2']);
      expect(JSON.parse(String(form.get('envelope')))).toEqual({ algorithm: 'a', recipient_key_ids: ['k'], nonce: 'n' });
      const file = form.get('file') as File;
      expect(file.name).toBe('x.bin');
      expect(Buffer.from(await file.arrayBuffer())).toEqual(bytes);
      expectAgentSigned();
    });

    it('should download the bytes with what the headers say', async () => {
      server.respond({ status: 200, body: 'hello', headers: { 'content-type': 'text/plain', etag: `"${ref}"`, 'x-artifact-ref': ref } });
      const got = await agent.artifacts.download(ref);
      expect(last().url).toBe(`/v1/artifacts/${ref}`);
      expect(got).toEqual({ bytes: Buffer.from('hello'), artifactRef: ref, mediaType: 'text/plain', sizeBytes: 5, etag: ref });
    });

    it('should turn 451 into artifact_removed with the reason', async () => {
      server.respond(problem(451, 'artifact_removed', 'removed: copyright claim'));
      const err = await agent.artifacts.download(ref).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ExchangeApiError);
      expect((err as ExchangeApiError).status).toBe(451);
      expect((err as ExchangeApiError).code).toBe('artifact_removed');
      expect((err as ExchangeApiError).detail).toBe('removed: copyright claim');
    });

    it('should ack with a signature over {artifact_ref, agent_id}', async () => {
      server.respond(json(201, { ack_id: 'ack_1' }));
      await agent.artifacts.ack(ref);
      expect(last().url).toBe(`/v1/artifacts/${ref}/acks`);
      const body = lastBody();
      expect(body.agent_id).toBe(AGENT);
      expect(nodeVerify(canonical({ agent_id: AGENT, artifact_ref: ref }), body.signature, keys.publicKey)).toBe(true);
      await expect(operator.artifacts.ack(ref)).rejects.toThrow(/artifacts.ack/);
      expect(server.requests).toHaveLength(1);
    });

    it('should reach envelope, receipts, takedown and reinstate', async () => {
      server.respond(json(200, {}), json(200, { data: [], next_cursor: null }), json(200, {}), json(200, {}));
      await agent.artifacts.envelope(ref);
      await agent.artifacts.receipts(ref, { limit: 5 });
      await operator.artifacts.takedown(ref, 'dmca');
      await operator.artifacts.reinstate(ref, 'counter notice');
      expect(server.requests.map((r) => `${r.method} ${r.url} ${r.body.toString()}`)).toEqual([
        `GET /v1/artifacts/${ref}/envelope `,
        `GET /v1/artifacts/${ref}/receipts?limit=5 `,
        `POST /v1/artifacts/${ref}/takedown {"reason":"dmca"}`,
        `POST /v1/artifacts/${ref}/reinstate {"reason":"counter notice"}`,
      ]);
    });
  });

  describe('attestations, receipts export, casefiles, aliases, identity reveals', () => {
    it('should send each call to its path with snake_case bodies', async () => {
      const cases: Array<[() => Promise<unknown>, string, string, unknown]> = [
        [() => agent.attestations.query({ subjectRef: 'ctr_1', from: new Date('2026-01-01T00:00:00Z'), limit: 10 }), 'POST', '/v1/attestations/query', { subject_ref: 'ctr_1', from: '2026-01-01T00:00:00.000Z', limit: 10 }],
        [() => agent.attestations.export({ signerAgentId: AGENT, to: '2026-12-01T00:00:00Z' }), 'POST', '/v1/attestations/export', { signer_agent_id: AGENT, to: '2026-12-01T00:00:00Z' }],
        [() => agent.receipts.export({ contractId: 'ctr_1' }), 'POST', '/v1/receipts/export', { contract_id: 'ctr_1' }],
        [() => agent.receipts.export({ receiptIds: ['rcpt_1'] }), 'POST', '/v1/receipts/export', { receipt_ids: ['rcpt_1'] }],
        [() => agent.casefiles.export({ subject: { contractId: 'ctr_1', artifactRefs: ['sha256:a'] }, includePayloads: true }), 'POST', '/v1/casefiles/export', { subject: { contract_id: 'ctr_1', artifact_refs: ['sha256:a'] }, include_payloads: true }],
        [() => agent.casefiles.verify({ docket_id: 'dkt_1' }, { exchangePublicKey: 'k' }), 'POST', '/v1/casefiles/verify', { docket: { docket_id: 'dkt_1' }, exchange_public_key: 'k' }],
        [() => agent.casefiles.verifyArchive(Buffer.from([1, 2, 3])), 'POST', '/v1/casefiles/verify', { archive_base64: 'AQID' }],
        [() => agent.aliases.mint({ contractId: 'ctr_1', role: 'buyer' }), 'POST', '/v1/party_alias_tokens/mint', { contract_id: 'ctr_1', role: 'buyer' }],
        [() => agent.aliases.get('sha256:t'), 'GET', '/v1/party_alias_tokens/sha256:t', undefined],
        [() => agent.identityReveals.mint({ contractId: 'ctr_1', alias: 'anon-1', revealTo: 'b:agent:x' }), 'POST', '/v1/identity_reveals/mint', { contract_id: 'ctr_1', alias: 'anon-1', reveal_to: 'b:agent:x' }],
        [() => agent.identityReveals.get('sha256:r'), 'GET', '/v1/identity_reveals/sha256:r', undefined],
      ];
      for (const [call, method, path, body] of cases) {
        server.respond(json(200, { ok: true }));
        expect(await call()).toEqual({ ok: true });
        expect(`${last().method} ${last().url}`).toBe(`${method} ${path}`);
        if (body === undefined) expect(last().body.length).toBe(0);
        else expect(lastBody()).toEqual(body);
        expectAgentSigned();
      }
    });

    it('should verify an exported casefile offline against the pinned key', async () => {
      const exchange = nodeKeyPair();
      const bytes = Buffer.from('work');
      const hex = nodeSha256Hex(bytes);
      const docket = signDocket(
        { subject: { contract_id: 'ctr_1' }, entries: [recordEntry('contract', 'ctr_1', { contract_id: 'ctr_1' }), artifactEntry(`sha256:${hex}`, hex, 'text/plain', 4)], createdAt: new Date() },
        exchange.privateKey,
      );
      const archive = await writeArchive(docket, new Map([[hex, bytes]]));
      server.respond(json(200, { docket, archive_base64: archive.toString('base64') }));
      const exported = await agent.casefiles.export({ subject: { contractId: 'ctr_1' }, includePayloads: true });
      const pinned = Buffer.from(exchange.publicKey).toString('base64');
      const verdict = await verifyCasefileArchive(casefileArchiveBytes(exported), { trustedPublicKey: pinned });
      expect(verdict.valid).toBe(true);
      expect(verdict.checks.map((c) => c.ref)).toEqual(['docket', 'signature', 'ctr_1', `sha256:${hex}`]);
    });

    it('should surface casefile_unreadable from the server', async () => {
      server.respond(problem(400, 'casefile_unreadable', 'not a gzip file'));
      const err = await agent.casefiles.verifyArchive(Buffer.from('x')).catch((e: unknown) => e);
      expect((err as ExchangeApiError).code).toBe('casefile_unreadable');
    });
  });
});
