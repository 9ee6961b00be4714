/** Kubelet --config file, --config-dir drop-ins and ValidateKubeletConfiguration, per minor 1.24-1.36. */
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
