/** Every check, in the order their findings are reported. The registration check comes first. */
import type { Check } from './check.js';
import { registrationCheck } from './registration-check.js';
import { architectureCheck, interpreterCheck, notExecutableAtPullCheck, permissionsCheck } from './plugin-checks.js';
import { ignoredFieldsCheck, matchImagesCheck } from './config-checks.js';

export const CHECKS: readonly Check[] = [
  registrationCheck,
  notExecutableAtPullCheck,
  architectureCheck,
  interpreterCheck,
  permissionsCheck,
  ignoredFieldsCheck,
  matchImagesCheck,
];
