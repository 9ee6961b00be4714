/**
 * In the cluster: which rendered MachineConfig is this node about to take?
 * An I/O module at the edge, like discover: a plain HTTPS client with the pod's service-account
 * token and CA (no client library), reading three things, all with get only:
 * - the Node: its labels (to find its pool) and the machine-config daemon's annotations
 *   machineconfiguration.openshift.io/currentConfig and .../desiredConfig;
 * - the MachineConfigPools: the node's pool's spec.configuration.name is the rendered config the
 *   pool is going to, visible to every node as soon as it is rendered, before the first node
 *   updates (status.configuration.name is the one the pool has);
 * - the MachineConfig of that name (JSON), which the overlay reader takes as it is.
 * Any failure (403, 404, timeout, bad JSON) becomes the input's error: "cannot tell", never a crash.
 * Also the Node's status.nodeInfo.kubeletVersion, for `serve` in a pod.
 * Sources for the field names: openshift/machine-config-operator pkg/daemon/constants/constants.go
 * (CurrentMachineConfigAnnotationKey, DesiredMachineConfigAnnotationKey) and the
 * MachineConfigPool API (spec.configuration, spec.nodeSelector).
 */
import * as https from 'node:https';
import { readFileSync } from 'node:fs';
import type { OverlayInput } from './check-upgrade.js';
import { MAX_INPUT_BYTES } from './ignition.js';

export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';
export const CURRENT_CONFIG_ANNOTATION = 'machineconfiguration.openshift.io/currentConfig';
export const DESIRED_CONFIG_ANNOTATION = 'machineconfiguration.openshift.io/desiredConfig';
const MCO_API = '/apis/machineconfiguration.openshift.io/v1';

export interface ClusterClient {
  /** https://host:port, no trailing slash. */
  readonly baseUrl: string;
  readonly token: string;
  /** PEM CA bundle that signs the API server's certificate. */
  readonly ca: string | Buffer;
  readonly timeoutMs: number;
}

/** The in-cluster client from the environment and the mounted service account, or why not. */
export function inClusterClient(env: Readonly<Record<string, string | undefined>>, timeoutMs = 5000, dir = SERVICE_ACCOUNT_DIR): ClusterClient | { problem: string } {
  const host = env['KUBERNETES_SERVICE_HOST'];
  const port = env['KUBERNETES_SERVICE_PORT'] ?? '443';
  if (!host) return { problem: 'KUBERNETES_SERVICE_HOST is not set: not running in a pod' };
  try {
    const token = readFileSync(`${dir}/token`, 'utf8').trim();
    const ca = readFileSync(`${dir}/ca.crt`);
    const hostPart = host.includes(':') ? `[${host}]` : host;
    return { baseUrl: `https://${hostPart}:${port}`, token, ca, timeoutMs };
  } catch (error) {
    return { problem: `cannot read the service account in ${dir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
  }
}

export type GetResult = { ok: true; body: Buffer } | { ok: false; problem: string };

/** GET one API path; bounded in time and size. */
export function apiGet(client: ClusterClient, path: string): Promise<GetResult> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (result: GetResult) => {
      if (!settled) {
        settled = true;
        resolve(result);
      }
    };
    const url = new URL(path, client.baseUrl + '/');
    const request = https.get(url, { ca: client.ca, headers: { Authorization: `Bearer ${client.token}`, Accept: 'application/json' }, timeout: client.timeoutMs }, (response) => {
      const chunks: Buffer[] = [];
      let total = 0;
      response.on('data', (chunk: Buffer) => {
        total += chunk.length;
        if (total > MAX_INPUT_BYTES) {
          request.destroy();
          done({ ok: false, problem: `GET ${path}: response larger than ${MAX_INPUT_BYTES} bytes` });
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () => {
        const body = Buffer.concat(chunks);
        if (response.statusCode === 200) return done({ ok: true, body });
        done({ ok: false, problem: `GET ${path}: HTTP ${response.statusCode}${statusMessage(body)}` });
      });
      response.on('error', (error) => done({ ok: false, problem: `GET ${path}: ${error.message}` }));
    });
    request.on('timeout', () => {
      request.destroy();
      done({ ok: false, problem: `GET ${path}: no answer within ${client.timeoutMs} ms` });
    });
    request.on('error', (error) => done({ ok: false, problem: `GET ${path}: ${error.message}` }));
    // A hard bound too: the socket timeout is per inactivity, a trickling server could hold us.
    setTimeout(() => {
      if (!settled) {
        request.destroy();
        done({ ok: false, problem: `GET ${path}: no answer within ${client.timeoutMs} ms` });
      }
    }, client.timeoutMs + 100).unref();
  });
}

/** The API's Status message ("machineconfigpools... is forbidden: User ..."), when the body is one. */
function statusMessage(body: Buffer): string {
  try {
    const status = JSON.parse(body.toString('utf8')) as { kind?: string; message?: unknown };
    return status.kind === 'Status' && typeof status.message === 'string' ? `: ${status.message.slice(0, 300)}` : '';
  } catch {
    return '';
  }
}

// A DNS subdomain (RFC 1123), what the API allows as a Node or MachineConfig name.
const OBJECT_NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

/**
 * The kubelet version the Node object reports (status.nodeInfo.kubeletVersion, e.g.
 * "v1.29.5+4fa2eba"): the pod cannot run the host's kubelet to ask it, but kubelet itself
 * wrote this when it registered. Pure: the caller has parsed the Node.
 */
export function kubeletVersionOfNode(node: unknown): string | undefined {
  const version = (node as { status?: { nodeInfo?: { kubeletVersion?: unknown } } } | null)?.status?.nodeInfo?.kubeletVersion;
  return typeof version === 'string' && version.trim() !== '' ? version.trim() : undefined;
}

/** GET the Node and read its kubelet version, or why not (never throws). */
export async function nodeKubeletVersion(client: ClusterClient, nodeName: string): Promise<{ version: string } | { problem: string }> {
  if (!OBJECT_NAME.test(nodeName)) return { problem: `node name ${JSON.stringify(nodeName)} is not a valid node name` };
  const got = await apiGet(client, `/api/v1/nodes/${nodeName}`);
  if (!got.ok) return { problem: got.problem };
  let doc: unknown;
  try {
    doc = JSON.parse(got.body.toString('utf8'));
  } catch (error) {
    return { problem: `GET /api/v1/nodes/${nodeName}: not JSON: ${(error as Error).message}` };
  }
  const version = kubeletVersionOfNode(doc);
  return version === undefined ? { problem: `node ${nodeName} has no status.nodeInfo.kubeletVersion` } : { version };
}

export interface NodeTarget {
  readonly node: string;
  readonly pool?: string;
  readonly currentConfig?: string;
  readonly desiredConfig?: string;
  /** The pool's spec.configuration.name: where every node of the pool is going. */
  readonly poolTarget?: string;
}

/** Reads the node and the pools; says which rendered config the node's pool is going to. */
export async function nodeTarget(client: ClusterClient, nodeName: string): Promise<NodeTarget | { problem: string }> {
  if (!OBJECT_NAME.test(nodeName)) return { problem: `node name ${JSON.stringify(nodeName)} is not a valid node name` };
  const node = await apiGet(client, `/api/v1/nodes/${nodeName}`);
  if (!node.ok) return { problem: node.problem };
  const pools = await apiGet(client, `${MCO_API}/machineconfigpools`);
  if (!pools.ok) return { problem: pools.problem };
  let nodeDoc: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> } };
  let poolList: { items?: Pool[] };
  try {
    nodeDoc = JSON.parse(node.body.toString('utf8'));
    poolList = JSON.parse(pools.body.toString('utf8'));
  } catch (error) {
    return { problem: `the API answered with something that is not JSON: ${(error as Error).message}` };
  }
  const labels = nodeDoc.metadata?.labels ?? {};
  const annotations = nodeDoc.metadata?.annotations ?? {};
  const matching = (poolList.items ?? []).filter((pool) => selects(pool.spec?.nodeSelector, labels));
  // A node in a custom pool is also selected by "worker"; the machine-config controller puts it in
  // the custom pool (pkg/controller/node: getPrimaryPoolForNode prefers a non-worker pool).
  const pool = matching.find((p) => p.metadata?.name !== 'worker') ?? matching[0];
  const target: NodeTarget = {
    node: nodeName,
    ...(pool?.metadata?.name ? { pool: pool.metadata.name } : {}),
    ...(annotations[CURRENT_CONFIG_ANNOTATION] ? { currentConfig: annotations[CURRENT_CONFIG_ANNOTATION] } : {}),
    ...(annotations[DESIRED_CONFIG_ANNOTATION] ? { desiredConfig: annotations[DESIRED_CONFIG_ANNOTATION] } : {}),
    ...(pool?.spec?.configuration?.name ? { poolTarget: pool.spec.configuration.name } : {}),
  };
  return target;
}

/** The MachineConfigs to evaluate for the node (pool target first, then a different desiredConfig), as overlay inputs. */
export async function pendingInputs(client: ClusterClient, target: NodeTarget): Promise<OverlayInput[]> {
  const names = [...new Set([target.poolTarget, target.desiredConfig].filter((n): n is string => typeof n === 'string' && n !== ''))];
  const inputs: OverlayInput[] = [];
  for (const name of names) {
    const origin = `machineconfig/${name}`;
    if (!OBJECT_NAME.test(name)) {
      inputs.push({ kind: 'machine-config', origin, error: 'not a valid object name' });
      continue;
    }
    const got = await apiGet(client, `${MCO_API}/machineconfigs/${name}`);
    inputs.push(got.ok ? { kind: 'machine-config', origin, data: got.body } : { kind: 'machine-config', origin, error: got.problem });
  }
  return inputs;
}

interface Pool {
  metadata?: { name?: string };
  spec?: { nodeSelector?: LabelSelector; configuration?: { name?: string } };
}
interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

/** metav1.LabelSelector semantics; a nil selector selects nothing, an empty one everything. */
export function selects(selector: LabelSelector | undefined, labels: Readonly<Record<string, string>>): boolean {
  if (!selector) return false;
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) if (labels[key] !== value) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.prototype.hasOwnProperty.call(labels, e.key);
    const values = e.values ?? [];
    switch (e.operator) {
      case 'In':
        if (!has || !values.includes(labels[e.key]!)) return false;
        break;
      case 'NotIn':
        if (has && values.includes(labels[e.key]!)) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}
