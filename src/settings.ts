/**
 * node-check's own settings: defaults, then /etc/node-check/config.yaml (or $NODE_CHECK_CONFIG),
 * then flags. Loaded once by the CLI, validated, and passed down; nothing else reads
 * process.env or process.argv.
 */
import { yamlPackage } from './host/yaml-package.js';
import { nestingProblem } from './limits/nesting.js';

export interface Settings {
  readonly root: string;
  readonly unit: string;
  readonly kubeletVersion?: string;
  /** Overrides the flavour node-check reads from the node's evidence. */
  readonly kubeletFlavor?: 'upstream' | 'openshift';
  readonly output: 'text' | 'json';
  readonly color: boolean;
  /** --verbose: the files read, which file set each setting, where the kubelet version came from. */
  readonly verbose: boolean;
  /**
   * Finding ids demoted as kubeadm's --ignore-preflight-errors does (check, preflight): still
   * reported, marked ignored, and no longer deciding the exit code (src/evaluate/ignore.ts).
   */
  readonly ignore: readonly string[];
  /** preflight */
  readonly textfileDir: string;
  readonly journal: boolean;
  readonly metrics: boolean;
  readonly timeoutSeconds: number;
  readonly fallback: boolean;
  /** serve */
  readonly listen: string;
  readonly intervalSeconds: number;
  readonly autoRestore: boolean;
}

export const DEFAULT_CONFIG_FILE = '/etc/node-check/config.yaml';

export const DEFAULT_SETTINGS: Settings = {
  root: '/',
  unit: 'kubelet.service',
  output: 'text',
  color: false,
  verbose: false,
  ignore: [],
  textfileDir: '/var/lib/node_exporter/textfile_collector',
  journal: true,
  metrics: true,
  timeoutSeconds: 10,
  fallback: false,
  listen: '127.0.0.1:9847',
  intervalSeconds: 60,
  autoRestore: false,
};

/** Keys allowed in config.yaml, with their types. */
const FILE_KEYS: Record<string, 'string' | 'boolean' | 'number' | 'string[]'> = {
  unit: 'string',
  kubeletFlavor: 'string',
  textfileDir: 'string',
  journal: 'boolean',
  metrics: 'boolean',
  timeoutSeconds: 'number',
  fallback: 'boolean',
  listen: 'string',
  intervalSeconds: 'number',
  autoRestore: 'boolean',
  ignore: 'string[]',
};

export class SettingsError extends Error {}

/** Parses and validates config.yaml; errors name the file and line. */
export function parseConfigFile(text: string, path: string): Partial<Settings> {
  let document: unknown;
  const tooDeep = nestingProblem(text);
  if (tooDeep) throw new SettingsError(`${path}: not valid YAML: ${tooDeep}`);
  try {
    document = yamlPackage().parse(text, { maxAliasCount: 50, prettyErrors: true });
  } catch (error) {
    const line = error instanceof yamlPackage().YAMLParseError && error.linePos ? `:${error.linePos[0].line}` : '';
    throw new SettingsError(`${path}${line}: not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (document === null || document === undefined) return {};
  if (typeof document !== 'object' || Array.isArray(document)) throw new SettingsError(`${path}: expected a mapping of settings`);
  const settings: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(document as Record<string, unknown>)) {
    const type = FILE_KEYS[key];
    if (!type) throw new SettingsError(`${path}: unknown setting "${key}" (known: ${Object.keys(FILE_KEYS).join(', ')})`);
    const ok = type === 'string[]' ? Array.isArray(value) && value.every((v) => typeof v === 'string') : typeof value === type;
    if (!ok) throw new SettingsError(`${path}: setting "${key}" must be ${type === 'string[]' ? 'a list of strings' : `a ${type}`}`);
    settings[key] = value;
  }
  return validate(settings as Partial<Settings>, path);
}

/** The unit types systemd knows (src/basic/unit-def.c unit_type_table, systemd v252). */
const UNIT_TYPE_SUFFIXES = ['.service', '.socket', '.target', '.device', '.mount', '.automount', '.swap', '.timer', '.path', '.slice', '.scope'];

/**
 * systemctl's habit: a unit named without a type suffix means NAME.service (unit_name_mangle() in
 * src/basic/unit-name.c, systemd v252), so `--unit kubelet` is kubelet.service.
 */
export function unitName(name: string): string {
  return UNIT_TYPE_SUFFIXES.some((suffix) => name.endsWith(suffix) && name.length > suffix.length) ? name : `${name}.service`;
}

/**
 * textfileDir and metrics from a settings file that may be invalid otherwise (an unknown key, a
 * bad value elsewhere): where a preflight that could not load its settings says "cannot tell".
 */
export function metricsSettingsOf(text: string): { textfileDir?: string; metrics?: boolean } {
  if (nestingProblem(text)) return {};
  let document: unknown;
  try {
    document = yamlPackage().parse(text, { maxAliasCount: 50 });
  } catch {
    return {};
  }
  if (document === null || typeof document !== 'object' || Array.isArray(document)) return {};
  const { textfileDir, metrics } = document as Record<string, unknown>;
  return { ...(typeof textfileDir === 'string' && textfileDir !== '' ? { textfileDir } : {}), ...(typeof metrics === 'boolean' ? { metrics } : {}) };
}

export function validate<T extends Partial<Settings>>(settings: T, origin: string): T {
  if (settings.unit) settings = { ...settings, unit: unitName(settings.unit) };
  if (settings.timeoutSeconds !== undefined && !(settings.timeoutSeconds > 0 && settings.timeoutSeconds <= 300)) {
    throw new SettingsError(`${origin}: timeout must be between 0 and 300 seconds`);
  }
  if (settings.kubeletFlavor !== undefined && settings.kubeletFlavor !== 'upstream' && settings.kubeletFlavor !== 'openshift') {
    throw new SettingsError(`${origin}: kubeletFlavor must be "upstream" or "openshift", got "${String(settings.kubeletFlavor)}"`);
  }
  if (settings.intervalSeconds !== undefined && !(settings.intervalSeconds >= 1)) {
    throw new SettingsError(`${origin}: interval must be at least 1 second`);
  }
  if (settings.listen !== undefined && (!/^(\[[0-9a-fA-F:.]+\]|[^:\s]+):\d{1,5}$/.test(settings.listen) || Number(settings.listen.slice(settings.listen.lastIndexOf(':') + 1)) > 65535)) {
    throw new SettingsError(`${origin}: listen must be HOST:PORT with a port from 0 to 65535, got "${settings.listen}"`);
  }
  return settings;
}

export function mergeSettings(...layers: readonly Partial<Settings>[]): Settings {
  const merged: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer)) if (value !== undefined) merged[key] = value;
  }
  return merged as unknown as Settings;
}
