/** Kubelet --config file, --config-dir drop-ins and ValidateKubeletConfiguration, per modelled minor (../data/minors.ts). */
export { loadKubeletConfigFile, kubeletConfigFileError, resolveRelativePaths, type LoadResult } from './load.js';
export { decodeKubeletConfig, type KubeletConfigObject, type KubeletConfigDecodeResult } from './decode.js';
export { mergeConfigDropIns, DROPIN_ENV, type DropIn, type MergeResult } from './dropins.js';
export {
  validateKubeletConfiguration,
  applyKubeletConfigDefaults,
  type ValidationResult,
  type ValidationHost,
  type ValidationOptions,
  type KubeletFlavor,
} from './validate.js';
