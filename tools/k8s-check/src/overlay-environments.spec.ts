// The sandbox and production overlays' own rules (what every overlay must satisfy: overlays.spec.ts).
import { describeWithExecutable } from '@exchange/testing';
import { secretValue } from './checks/addresses';
import { isFlowAllowed } from './checks/network-policy';
import { checkReferences } from './checks/references';
import { resolveEnv } from './env';
import { ofKind, workloads } from './manifest';
import { APP_DEPLOYMENTS } from './overlay-checks';
import { render, pod, rules } from './overlay-render';

describeWithExecutable('sandbox overlay', 'kubectl', 'apt-get install -y kubectl', () => {
  const objects = () => render('sandbox');

  it('should run in-cluster NATS and PostgreSQL', () => {
    const stateful = workloads(objects()).filter((w) => w.kind === 'StatefulSet').map((w) => w.name).sort();
    expect(stateful).toEqual(['nats', 'postgres']);
  });

  it('should create a database for every service that has a DATABASE_URL', () => {
    const init = ofKind(objects(), 'ConfigMap').find((c) => c.metadata?.name?.startsWith('postgres-init'))!;
    const sql = Object.values(init.data ?? {}).join('\n');
    const users = workloads(objects()).filter((w) => w.kind === 'Deployment' && resolveEnv(objects(), w.name, 'server').DATABASE_URL);
    expect(users.map((w) => w.name)).toEqual(expect.arrayContaining(['identity', 'wallet-ledger', 'market', 'registry', 'commerce']));
    for (const w of users) {
      const ref = resolveEnv(objects(), w.name, 'server').DATABASE_URL as { secret: string; key: string };
      const url = new URL(secretValue(objects(), ref.secret, ref.key)!);
      expect(url.host).toBe('postgres:5432');
      expect(sql).toContain(`CREATE DATABASE ${url.pathname.slice(1)};`);
    }
  });

  it('should run one replica of each service in sandbox mode', () => {
    for (const app of APP_DEPLOYMENTS) {
      expect(workloads(objects()).find((w) => w.name === app)!.replicas).toBe(1);
      expect(resolveEnv(objects(), app, 'server').EXCHANGE_ENV).toEqual({ value: 'sandbox' });
    }
  });

  it('should generate every Secret it uses (nothing operator-provided)', () => {
    expect(checkReferences(objects(), {}).problems).toEqual([]);
    for (const s of ofKind(objects(), 'Secret')) {
      expect(s.metadata?.name).toMatch(/^(identity-secrets|wallet-ledger-secrets|market-secrets|registry-secrets|commerce-secrets|workflows-secrets|telemetry-secrets|sandbox-merchant-secrets|gateway-secrets|postgres-credentials)-[a-z0-9]+$/);
    }
  });

  it('should give wallet-ledger the signing key the gateway publishes, so receipts verify against /health', () => {
    const keyOf = (app: string) => {
      const ref = resolveEnv(objects(), app, 'server').EXCHANGE_SIGNING_KEY as { secret: string; key: string };
      return secretValue(objects(), ref.secret, ref.key);
    };
    expect(keyOf('wallet-ledger')).toBeDefined();
    expect(keyOf('wallet-ledger')).toBe(keyOf('gateway'));
    expect(keyOf('registry')).toBe(keyOf('gateway'));
    expect(keyOf('commerce')).toBe(keyOf('gateway'));
  });

  it('should keep sandbox artifacts on the filesystem store (no ARTIFACT_STORE_URL in the generated Secret)', () => {
    const ref = resolveEnv(objects(), 'registry', 'server').DATABASE_URL as { secret: string; key: string };
    expect(secretValue(objects(), ref.secret, 'ARTIFACT_STORE_URL')).toBeUndefined();
    const volumes = workloads(objects()).find((w) => w.name === 'registry')!.pod.volumes ?? [];
    expect(volumes).toEqual(expect.arrayContaining([{ name: 'artifacts', emptyDir: {} }]));
  });

  it('should let services (not the gateway) reach PostgreSQL', () => {
    const pg = pod(objects(), 'postgres');
    expect(isFlowAllowed(objects(), pod(objects(), 'identity'), pg, { port: 5432, portName: 'postgres' })).toBe(true);
    expect(isFlowAllowed(objects(), pod(objects(), 'wallet-ledger'), pg, { port: 5432, portName: 'postgres' })).toBe(true);
    expect(isFlowAllowed(objects(), pod(objects(), 'market'), pg, { port: 5432, portName: 'postgres' })).toBe(true);
    expect(isFlowAllowed(objects(), pod(objects(), 'registry'), pg, { port: 5432, portName: 'postgres' })).toBe(true);
    expect(isFlowAllowed(objects(), pod(objects(), 'gateway'), pg, { port: 5432, portName: 'postgres' })).toBe(false);
  });
});

describeWithExecutable('production overlay', 'kubectl', 'apt-get install -y kubectl', () => {
  const objects = () => render('production');
  const production = rules.find((r) => r.name === 'production')!;

  it('should have no in-cluster PostgreSQL', () => {
    expect(workloads(objects()).find((w) => w.name === 'postgres')).toBeUndefined();
    expect(ofKind(objects(), 'StatefulSet').map((s) => s.metadata?.name)).toEqual(['nats']);
  });

  it('should run mainnet with at least 2 replicas of each service, each with a PodDisruptionBudget', () => {
    for (const app of APP_DEPLOYMENTS) {
      expect(workloads(objects()).find((w) => w.name === app)!.replicas).toBeGreaterThanOrEqual(2);
      expect(resolveEnv(objects(), app, 'server').EXCHANGE_ENV).toEqual({ value: 'mainnet' });
    }
    expect(ofKind(objects(), 'PodDisruptionBudget').map((p) => p.metadata?.name).sort()).toEqual(['commerce', 'gateway', 'identity', 'market', 'registry', 'telemetry', 'wallet-ledger', 'workflows']);
  });

  it('should render no Secret and use only the documented operator-provided ones', () => {
    expect(ofKind(objects(), 'Secret')).toEqual([]);
    const report = checkReferences(objects(), production.externalSecrets);
    expect(report.problems).toEqual([]);
    expect(report.externalSecretsUsed).toEqual(Object.keys(production.externalSecrets).sort());
    expect(production.externalSecrets).toEqual({
      'identity-secrets': ['DATABASE_URL'],
      'wallet-ledger-secrets': ['DATABASE_URL', 'EXCHANGE_SIGNING_KEY'],
      'market-secrets': ['DATABASE_URL'],
      'registry-secrets': ['DATABASE_URL', 'EXCHANGE_SIGNING_KEY', 'ARTIFACT_STORE_URL', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'],
      'commerce-secrets': ['DATABASE_URL', 'EXCHANGE_SIGNING_KEY', 'COMMERCE_PLATFORM_KEY'],
      'workflows-secrets': ['DATABASE_URL', 'EXCHANGE_SIGNING_KEY'],
      'telemetry-secrets': ['DATABASE_URL'],
      'gateway-secrets': ['OPERATOR_TOKENS', 'EXCHANGE_SIGNING_KEY'],
    });
  });

  it('should pin application images to a release', () => {
    for (const app of APP_DEPLOYMENTS) {
      expect(workloads(objects()).find((w) => w.name === app)!.pod.containers![0].image).toMatch(/^ghcr\.io\/agent-exchange\/[a-z-]+(:\d+\.\d+\.\d+|@sha256:[0-9a-f]+)$/);
    }
  });

  it('should share rate limits through Redis reachable only from the gateway', () => {
    expect(resolveEnv(objects(), 'gateway', 'server').REDIS_URL).toEqual({ value: 'redis://redis:6379' });
    const redis = pod(objects(), 'redis');
    expect(isFlowAllowed(objects(), pod(objects(), 'gateway'), redis, { port: 6379, portName: 'redis' })).toBe(true);
    expect(isFlowAllowed(objects(), pod(objects(), 'identity'), redis, { port: 6379, portName: 'redis' })).toBe(false);
  });

  it('should let services reach the managed PostgreSQL outside the cluster', () => {
    expect(isFlowAllowed(objects(), pod(objects(), 'identity'), 'external', { port: 5432 })).toBe(true);
    expect(isFlowAllowed(objects(), pod(objects(), 'wallet-ledger'), 'external', { port: 5432 })).toBe(true);
    expect(isFlowAllowed(objects(), pod(objects(), 'market'), 'external', { port: 5432 })).toBe(true);
    expect(isFlowAllowed(objects(), pod(objects(), 'registry'), 'external', { port: 5432 })).toBe(true);
  });

  it('should require the S3 artifact store (URL and credentials) and let only registry reach it over HTTPS', () => {
    const server = workloads(objects()).find((w) => w.name === 'registry')!.pod.containers![0];
    for (const key of ['ARTIFACT_STORE_URL', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']) {
      const ref = server.env?.find((e) => e.name === key)?.valueFrom?.secretKeyRef;
      expect({ key, ref }).toEqual({ key, ref: { name: 'registry-secrets', key, optional: false } });
    }
    expect(isFlowAllowed(objects(), pod(objects(), 'registry'), 'external', { port: 443 })).toBe(true);
    expect(isFlowAllowed(objects(), pod(objects(), 'market'), 'external', { port: 443 })).toBe(false);
    expect(isFlowAllowed(objects(), pod(objects(), 'gateway'), 'external', { port: 443 })).toBe(false);
  });
});
