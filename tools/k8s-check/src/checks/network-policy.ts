import type { K8sObject, LabelSelector } from '../manifest';
import { nameOf, ofKind, selectorMatches, workloads } from '../manifest';

interface Peer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: { cidr: string; except?: string[] };
}
interface PolicyPort {
  protocol?: string;
  port?: number | string;
  endPort?: number;
}
interface Rule {
  from?: Peer[];
  to?: Peer[];
  ports?: PolicyPort[];
}
interface PolicySpec {
  podSelector?: LabelSelector;
  policyTypes?: Array<'Ingress' | 'Egress'>;
  ingress?: Rule[];
  egress?: Rule[];
}

/** A pod (by its labels) or anything outside the cluster. */
export type Endpoint = { labels: Record<string, string> } | 'external';

export interface Target {
  port: number;
  /** Named container port, matched by policies that use port names. */
  portName?: string;
}

/**
 * Whether NetworkPolicies allow a TCP connection `from` → `to`:`port`, evaluated as the API
 * defines it (a pod is isolated for a direction once any policy of that type selects it, and
 * then needs an allowing rule; both the source's egress and the target's ingress must allow).
 * All objects are taken to share one namespace. Simplifications lean towards "allowed"
 * (an ipBlock matches every peer; a namespaceSelector does not narrow), so a `false` from this
 * function is a real denial.
 */
export function isFlowAllowed(objects: K8sObject[], from: Endpoint, to: Endpoint, target: Target): boolean {
  const policies = ofKind(objects, 'NetworkPolicy').map((p) => (p.spec ?? {}) as PolicySpec);
  if (to !== 'external' && !directionAllows(policies, 'Ingress', to, from, target)) return false;
  if (from !== 'external' && !directionAllows(policies, 'Egress', from, to, target)) return false;
  return true;
}

function directionAllows(policies: PolicySpec[], type: 'Ingress' | 'Egress', self: { labels: Record<string, string> }, peer: Endpoint, target: Target): boolean {
  const applying = policies.filter((p) => selectorMatches(p.podSelector ?? {}, self.labels) && typesOf(p).includes(type));
  if (applying.length === 0) return true;
  return applying.some((p) =>
    (type === 'Ingress' ? p.ingress : p.egress)?.some((rule) => {
      const peers = type === 'Ingress' ? rule.from : rule.to;
      return peersMatch(peers, peer) && portsMatch(rule.ports, target);
    }),
  );
}

function typesOf(p: PolicySpec): Array<'Ingress' | 'Egress'> {
  if (p.policyTypes && p.policyTypes.length > 0) return p.policyTypes;
  // API default: Ingress always, Egress when the policy has egress rules.
  return p.egress ? ['Ingress', 'Egress'] : ['Ingress'];
}

function peersMatch(peers: Peer[] | undefined, endpoint: Endpoint): boolean {
  if (!peers || peers.length === 0) return true;
  return peers.some((peer) => {
    if (peer.ipBlock) return true;
    if (endpoint === 'external') return false;
    if (!peer.podSelector) return peer.namespaceSelector !== undefined;
    return selectorMatches(peer.podSelector, endpoint.labels);
  });
}

function portsMatch(ports: PolicyPort[] | undefined, target: Target): boolean {
  if (!ports || ports.length === 0) return true;
  return ports.some((p) => {
    if ((p.protocol ?? 'TCP') !== 'TCP') return false;
    if (p.port === undefined) return true;
    if (typeof p.port === 'string') return p.port === target.portName;
    return p.endPort !== undefined ? target.port >= p.port && target.port <= p.endPort : p.port === target.port;
  });
}

/**
 * A default-deny policy (every pod, Ingress and Egress, no rules) exists, and every workload is
 * selected by at least one other policy — otherwise default-deny cuts it off completely.
 */
export function checkNetworkPolicies(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const policies = ofKind(objects, 'NetworkPolicy');
  const isDefaultDeny = (p: K8sObject) => {
    const s = (p.spec ?? {}) as PolicySpec;
    const types = typesOf(s);
    const selectsAll = Object.keys(s.podSelector?.matchLabels ?? {}).length === 0 && !s.podSelector?.matchExpressions?.length;
    return selectsAll && types.includes('Ingress') && types.includes('Egress') && !s.ingress?.length && !s.egress?.length;
  };
  if (!policies.some(isDefaultDeny)) problems.push('no default-deny NetworkPolicy (empty podSelector, Ingress+Egress, no rules)');
  for (const w of workloads(objects)) {
    const specific = policies.filter((p) => {
      const s = (p.spec ?? {}) as PolicySpec;
      return !isDefaultDeny(p) && Object.keys(s.podSelector?.matchLabels ?? {}).length > 0 && selectorMatches(s.podSelector, w.podLabels);
    });
    if (specific.length === 0) problems.push(`${w.kind}/${w.name}: no NetworkPolicy selects its pods`);
  }
  return problems;
}

export function policyNames(objects: K8sObject[]): string[] {
  return ofKind(objects, 'NetworkPolicy').map(nameOf).sort();
}
