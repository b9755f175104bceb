// The subset of Kubernetes object shapes the checks read. Rendered YAML is untrusted input,
// so every field is optional and readers fall back to empty values.

export interface K8sObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}

export interface SecurityContext {
  runAsNonRoot?: boolean;
  runAsUser?: number;
  allowPrivilegeEscalation?: boolean;
  privileged?: boolean;
  readOnlyRootFilesystem?: boolean;
  capabilities?: { drop?: string[]; add?: string[] };
  seccompProfile?: { type?: string };
}

export interface Probe {
  grpc?: { port?: number; service?: string };
  httpGet?: { path?: string; port?: number | string };
  tcpSocket?: { port?: number | string };
  exec?: { command?: string[] };
}

export interface KeyRef {
  name?: string;
  key?: string;
  optional?: boolean;
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: KeyRef; configMapKeyRef?: KeyRef };
}

export interface EnvFromSource {
  configMapRef?: { name?: string; optional?: boolean };
  secretRef?: { name?: string; optional?: boolean };
}

export interface ContainerPort {
  name?: string;
  containerPort: number;
  protocol?: string;
}

export interface Container {
  name: string;
  image?: string;
  ports?: ContainerPort[];
  env?: EnvVar[];
  envFrom?: EnvFromSource[];
  securityContext?: SecurityContext;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
  volumeMounts?: Array<{ name: string; mountPath: string; readOnly?: boolean }>;
}

export interface Volume {
  name: string;
  secret?: { secretName?: string; optional?: boolean };
  configMap?: { name?: string; optional?: boolean };
  emptyDir?: Record<string, unknown>;
  persistentVolumeClaim?: { claimName?: string };
}

export interface PodSpec {
  serviceAccountName?: string;
  securityContext?: SecurityContext & { fsGroup?: number };
  containers?: Container[];
  initContainers?: Container[];
  volumes?: Volume[];
}

/** A Deployment or StatefulSet with the parts of its pod template the checks need. */
export interface Workload {
  kind: 'Deployment' | 'StatefulSet';
  name: string;
  replicas: number;
  podLabels: Record<string, string>;
  pod: PodSpec;
  object: K8sObject;
}

export const WORKLOAD_KINDS = ['Deployment', 'StatefulSet'] as const;

export function nameOf(o: K8sObject): string {
  return o.metadata?.name ?? '';
}

export function ofKind(objects: K8sObject[], kind: string): K8sObject[] {
  return objects.filter((o) => o.kind === kind);
}

export function find(objects: K8sObject[], kind: string, name: string): K8sObject | undefined {
  return objects.find((o) => o.kind === kind && nameOf(o) === name);
}

export function workloads(objects: K8sObject[]): Workload[] {
  return objects
    .filter((o): o is K8sObject & { kind: Workload['kind'] } =>
      (WORKLOAD_KINDS as readonly string[]).includes(o.kind ?? ''),
    )
    .map((o) => {
      const spec = (o.spec ?? {}) as {
        replicas?: number;
        template?: { metadata?: { labels?: Record<string, string> }; spec?: PodSpec };
      };
      return {
        kind: o.kind,
        name: nameOf(o),
        // The API server defaults a missing replicas field to 1.
        replicas: spec.replicas ?? 1,
        podLabels: spec.template?.metadata?.labels ?? {},
        pod: spec.template?.spec ?? {},
        object: o,
      };
    });
}

export function allContainers(pod: PodSpec): Container[] {
  return [...(pod.initContainers ?? []), ...(pod.containers ?? [])];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }>;
}

/** Kubernetes label-selector semantics; an empty selector matches everything. */
export function selectorMatches(selector: LabelSelector | undefined, labels: Record<string, string>): boolean {
  if (!selector) return true;
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) {
    if (labels[k] !== v) return false;
  }
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.prototype.hasOwnProperty.call(labels, e.key);
    const values = e.values ?? [];
    if (e.operator === 'In' && !(has && values.includes(labels[e.key]))) return false;
    if (e.operator === 'NotIn' && has && values.includes(labels[e.key])) return false;
    if (e.operator === 'Exists' && !has) return false;
    if (e.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}
