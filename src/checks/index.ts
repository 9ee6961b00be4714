/**
 * Every credential check, in the order their findings are reported: warnings about plugins and
 * configs that pass start-up (registration itself is a start step, src/start/steps/).
 */
import type { Check } from './check.js';
import { architectureCheck, interpreterCheck, notExecutableAtPullCheck, permissionsCheck } from './plugin-checks.js';
import { ignoredFieldsCheck, matchImagesCheck } from './config-checks.js';

export const CHECKS: readonly Check[] = [
  notExecutableAtPullCheck,
  architectureCheck,
  interpreterCheck,
  permissionsCheck,
  ignoredFieldsCheck,
  matchImagesCheck,
];
