/**
 * Kubelet's start steps 4, 5, 7 and 8 (cmd/kubelet/app/server.go, 1.24-1.37): the --config file is
 * read and decoded (an empty file, an unknown kind or a syntax error is fatal; unknown fields are
 * dropped with a warning), the --config-dir drop-ins are merged (1.28+; 1.28-1.29 only with
 * KUBELET_CONFIG_DROPIN_DIR_ALPHA), logging is initialised (1.25+), and ValidateKubeletConfiguration
 * checks the result with the flags applied over it. Decoding, merging and validation per minor live in src/kubelet/config/.
 */
import type { Finding } from '../../model/findings.js';
import type { StartCheck } from '../start-check.js';
import { kubeletFails, PASS } from '../start-check.js';
import { kubeletConfigFileError, validateKubeletConfiguration } from '../../kubelet/config/index.js';
import { checkLogging } from '../../kubelet/config/logging.js';
import { aggregateError } from '../../kubernetes/aggregate.js';
import { wrapStepError } from '../../kubelet/data/start-sequence.js';
import { configDirCreatedBeforeStart } from '../start-context.js';
import type { FindingId } from '../../catalog/findings.js';

export const configFileStep: StartCheck = {
  id: 'kubelet-config-file',
  title: 'Kubelet reads and decodes its --config file',
  stage: 'kubelet',
  appliesTo: () => true,
  run(context) {
    const load = context.configLoad;
    const path = context.model.kubeletConfig.configFile?.path;
    if (!load || path === undefined) return PASS;
    if ('undecidable' in load) return { undecidable: `node-check cannot read ${path} as kubelet 1.${context.minor} does: ${load.undecidable}`, path };
    if (!load.ok) {
      const findingId = ({ unreadable: 'kubelet-config-unreadable', empty: 'kubelet-config-empty', invalid: 'kubelet-config-invalid', 'wrong-kind': 'kubelet-config-invalid' } as const satisfies Record<typeof load.reason, FindingId>)[load.reason];
      return kubeletFails(context, {
        findingId,
        message: `Kubelet 1.${context.minor} cannot load its --config file ${path}: ${load.error}.`,
        remediation: load.reason === 'unreadable' ? `Restore ${path} (kubeadm and the machine-config daemon write it), or correct --config.` : `Correct ${path}: it must be a KubeletConfiguration (apiVersion: kubelet.config.k8s.io/v1beta1) in YAML or JSON.`,
        kubeletError: kubeletConfigFileError(context.minor, path, load.error),
        path,
        ...(load.inexact ? { inexact: true } : {}),
      });
    }
    const findings: Finding[] = load.droppedFields.length === 0 ? [] : [{
      id: 'kubelet-config-fields-ignored',
      severity: 'warning',
      message: `Kubelet 1.${context.minor} does not know ${load.droppedFields.length === 1 ? 'the field' : 'the fields'} ${load.droppedFields.map((f) => `"${f}"`).join(', ')} in ${path}: it logs a warning, drops ${load.droppedFields.length === 1 ? 'it' : 'them'} and starts without the setting.`,
      path,
      remediation: `Remove or correct ${load.droppedFields.length === 1 ? 'the field' : 'the fields'} in ${path}, or run a kubelet that knows ${load.droppedFields.length === 1 ? 'it' : 'them'}.`,
    }];
    return { pass: true, findings };
  },
};

export const configDropInsStep: StartCheck = {
  id: 'kubelet-config-dropins',
  title: 'Kubelet merges its --config-dir drop-ins',
  stage: 'kubelet',
  appliesTo: () => true,
  run(context) {
    const dir = context.model.kubeletConfig.configDir;
    if (!dir) return PASS;
    if (dir.problem) {
      // A missing directory is fatal for kubelet (WalkDir), but units usually create it in an
      // ExecStartPre (OpenShift: mkdir --parents /etc/openshift/kubelet.conf.d): then kubelet finds it
      // empty and has nothing to merge.
      if (!configDirCreatedBeforeStart(context.model)) return { undecidable: `--config-dir ${dir.path}: ${dir.problem}${dir.missing ? '; kubelet fails unless something creates it before kubelet starts' : ''}`, path: dir.path };
    }
    const merge = context.dropInMerge;
    if (!merge) return PASS;
    if ('undecidable' in merge) return { undecidable: `node-check cannot merge the drop-ins of ${dir.path} as kubelet 1.${context.minor} does: ${merge.undecidable}`, path: dir.path };
    if (merge.ok) return PASS;
    const inner = merge.error;
    return kubeletFails(context, {
      findingId: merge.reason === 'env-missing' ? 'kubelet-config-dropin-env-missing' : 'kubelet-config-dropin-invalid',
      message: merge.reason === 'env-missing'
        ? `Kubelet 1.${context.minor} only reads --config-dir ${dir.path} with the environment variable KUBELET_CONFIG_DROPIN_DIR_ALPHA set, and the unit does not set it.`
        : `Kubelet 1.${context.minor} cannot merge the drop-ins of --config-dir ${dir.path}: ${inner}.`,
      remediation: merge.reason === 'env-missing'
        ? 'Add Environment="KUBELET_CONFIG_DROPIN_DIR_ALPHA=" to the kubelet unit, or run kubelet 1.30 or newer, or drop --config-dir.'
        : `Correct ${merge.path ?? dir.path}: each *.conf drop-in must be a KubeletConfiguration with apiVersion and kind.`,
      kubeletError: merge.reason === 'env-missing' ? (wrapStepError(context.minor, 'dropin-env-check', dir.path) ?? inner) : (wrapStepError(context.minor, 'merge-dropins', inner) ?? `failed to merge kubelet configs: ${inner}`),
      path: merge.path ?? dir.path,
      ...(merge.inexact ? { inexact: true } : {}),
    });
  },
};

/** Kubelet 1.25+ initialises logging before it validates the configuration (1.24: inside validation). */
export const loggingStep: StartCheck = {
  id: 'kubelet-logging',
  title: 'Kubelet initialises logging (logging.format, --logging-format)',
  stage: 'kubelet',
  appliesTo: (minor) => minor >= 25,
  run(context) {
    const where = context.model.kubeletConfig.configFile?.path;
    const flagNames = new Set(context.model.kubelet?.flags.occurrences.keys() ?? []);
    const result = checkLogging(context.minor, context.effectiveConfig, (gate) => context.gateEnabled(gate), flagNames);
    if ('undecidable' in result) return { undecidable: `node-check cannot tell whether kubelet 1.${context.minor} accepts its logging configuration: ${result.undecidable}`, ...(where ? { path: where } : {}) };
    if (result.ok) return PASS;
    const inner = aggregateError(result.errors);
    return kubeletFails(context, {
      findingId: 'kubelet-logging-invalid',
      message: `Kubelet 1.${context.minor} cannot initialise logging with its configuration${where ? ` (${where} and the flags)` : ''}: ${inner}.`,
      remediation: 'Set logging.format (or --logging-format) to "text" or "json", and remove logging.vmodule unless the format is "text".',
      kubeletError: wrapStepError(context.minor, 'init-logging', inner) ?? `initialize logging: ${inner}`,
      ...(where ? { path: where } : {}),
      ...(result.inexact ? { inexact: true } : {}),
    });
  },
};

export const configValidationStep: StartCheck = {
  id: 'kubelet-config-validation',
  title: 'ValidateKubeletConfiguration',
  stage: 'kubelet',
  appliesTo: () => true,
  run(context) {
    const where = context.model.kubeletConfig.configFile?.path;
    const flagNames = new Set(context.model.kubelet?.flags.occurrences.keys() ?? []);
    const result = validateKubeletConfiguration(context.minor, context.effectiveConfig, (gate) => context.gateEnabled(gate), { cgroupV2: context.cgroupV2 }, { flavor: context.flavor, flagNames });
    if ('undecidable' in result) return { undecidable: `node-check cannot tell whether kubelet 1.${context.minor} accepts its configuration: ${result.undecidable}`, ...(where ? { path: where } : {}) };
    if (result.ok) return PASS;
    return kubeletFails(context, {
      findingId: 'kubelet-config-validation',
      message: `Kubelet 1.${context.minor} refuses its configuration${where ? ` (${where} and the flags)` : ''}: ${result.error}.`,
      remediation: `Correct the fields named in the message${where ? ` in ${where} (or the flags that set them)` : ' (flags in the unit)'}.`,
      kubeletError: wrapStepError(context.minor, 'validate-config', result.error) ?? `failed to validate kubelet configuration, error: ${result.error}`,
      ...(where ? { path: where } : {}),
      ...(result.inexact ? { inexact: true } : {}),
    });
  },
};
