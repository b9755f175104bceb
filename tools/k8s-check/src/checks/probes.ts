import type { Container, K8sObject, Probe } from '../manifest';
import { workloads } from '../manifest';

/**
 * Every long-running container has readiness and liveness probes whose ports exist on the
 * container. A container exposing a port named `grpc` is a gRPC service: its readiness and
 * liveness probes must be native `grpc:` probes on that port (grpc.health.v1).
 */
export function checkProbes(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  for (const w of workloads(objects)) {
    for (const c of w.pod.containers ?? []) {
      const where = `${w.kind}/${w.name} container ${c.name}`;
      const grpcPort = c.ports?.find((p) => p.name === 'grpc')?.containerPort;
      for (const [field, probe] of [
        ['readinessProbe', c.readinessProbe],
        ['livenessProbe', c.livenessProbe],
      ] as const) {
        if (!probe) {
          problems.push(`${where}: ${field} missing`);
          continue;
        }
        if (grpcPort !== undefined && probe.grpc?.port !== grpcPort) {
          problems.push(`${where}: ${field} must be a grpc probe on port ${grpcPort}`);
        }
      }
      for (const [field, probe] of [
        ['readinessProbe', c.readinessProbe],
        ['livenessProbe', c.livenessProbe],
        ['startupProbe', c.startupProbe],
      ] as const) {
        const port = probePort(probe);
        if (port !== undefined && !containerHasPort(c, port)) {
          problems.push(`${where}: ${field} port ${port} is not a container port`);
        }
      }
    }
  }
  return problems;
}

function probePort(probe: Probe | undefined): number | string | undefined {
  return probe?.grpc?.port ?? probe?.httpGet?.port ?? probe?.tcpSocket?.port;
}

export function containerHasPort(c: Container, port: number | string): boolean {
  return (c.ports ?? []).some((p) => (typeof port === 'number' ? p.containerPort === port : p.name === port));
}
