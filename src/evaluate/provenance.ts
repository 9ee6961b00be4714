/**
 * --verbose: where each input of the answer came from, as plain data for the renderers: the files
 * read, the unit file or drop-in whose ExecStart= and Environment= won, the kubelet config file
 * or --config-dir drop-in that set each field last, and where the kubelet version came from.
 * Pure: computed from the NodeModel, and only when asked (it parses the kubelet config again).
 */
import { yamlPackage } from '../host/yaml-package.js';
import type { FileContent, NodeModel } from '../model/node.js';
import type { Provenance } from '../model/report.js';
import { nestingProblem } from '../limits/nesting.js';

export function provenanceOf(model: NodeModel, openshiftVersion?: string): Provenance {
  const service = model.service;
  const config = model.kubeletConfig;
  const read = [
    ...(service.fragmentPath ? [service.fragmentPath] : []),
    ...service.dropInPaths,
    ...service.environmentFiles.filter((ref) => ref.loaded).map((ref) => ref.path),
    ...(config.configFile ? [config.configFile.path] : []),
    ...(config.configDir?.dropIns ?? []).map((d) => d.path),
    ...Object.entries(model.files).filter(([, fact]) => fact.exists && (fact.content !== undefined || fact.elf !== undefined || fact.shebang !== undefined)).map(([path]) => path),
  ];
  // A set: the table has a fact for every credential plugin, most of them read (start-path cost).
  const filesRead = new Set(read);
  const examined = Object.keys(model.files).filter((path) => !filesRead.has(path));
  const origins = service.environmentOrigins ?? {};
  return {
    filesRead: [...filesRead],
    pathsExamined: examined,
    execStart: service.execStart ? `${service.execStart.source.file}:${service.execStart.source.line}` : null,
    environment: Object.keys(service.environment).sort().map((name) => ({ name, from: origins[name] ?? 'unknown' })),
    kubeletConfig: configFieldOrigins(config),
    kubeletVersion: versionOrigin(model, openshiftVersion),
  };
}

/** The last file to set each top-level field (and each feature gate): kubelet merges --config-dir drop-ins over --config, in walk order. */
function configFieldOrigins(config: NodeModel['kubeletConfig']): Provenance['kubeletConfig'] {
  const fields = new Map<string, string>();
  const files = [...(config.configFile ? [config.configFile] : []), ...(config.configDir?.dropIns ?? [])];
  for (const file of files) {
    for (const field of topLevelFields(file.content)) fields.set(field, file.path);
  }
  return {
    file: config.configFile?.path ?? null,
    dropIns: (config.configDir?.dropIns ?? []).map((d) => d.path),
    fields: [...fields].sort(([a], [b]) => a.localeCompare(b)).map(([field, from]) => ({ field, from })),
  };
}

function topLevelFields(content: FileContent): string[] {
  if (!Buffer.isBuffer(content)) return [];
  const text = content.toString('utf8');
  if (nestingProblem(text)) return [];
  let document: unknown;
  try {
    document = yamlPackage().parse(text, { maxAliasCount: 50 });
  } catch {
    return [];
  }
  if (!document || typeof document !== 'object' || Array.isArray(document)) return [];
  const fields: string[] = [];
  for (const [key, value] of Object.entries(document as Record<string, unknown>)) {
    if (key === 'featureGates' && value && typeof value === 'object' && !Array.isArray(value)) fields.push(...Object.keys(value).map((gate) => `featureGates.${gate}`));
    else if (key !== 'kind' && key !== 'apiVersion') fields.push(key);
  }
  return fields;
}

function versionOrigin(model: NodeModel, openshiftVersion: string | undefined): Provenance['kubeletVersion'] {
  if (openshiftVersion) return { source: 'openshift-version', detail: `the kubelet minor of OpenShift ${openshiftVersion} (--openshift-version)` };
  const version = model.kubeletVersion;
  if (version?.source === 'flag') return { source: 'flag', detail: '--kubelet-version' };
  if (version?.source === 'binary') return { source: 'binary', detail: `\`${model.kubelet?.kubeletPath ?? 'kubelet'} --version\`` };
  return { source: 'unknown', detail: model.kubeletVersionProblem ?? 'unknown' };
}
