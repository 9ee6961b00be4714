/** Warnings about provider configs that kubelet accepts but that do not do what their author meant. */
import type { Finding } from '../model/findings.js';
import type { Check } from './check.js';
import { matchImagePatternProblem } from '../credentials/match-images.js';
import { oncePerInput } from '../lib/memo.js';

export const matchImagesCheck: Check = {
  id: 'match-image-never-matches',
  title: 'matchImages patterns that can never match',
  appliesTo: () => true,
  run(context) {
    const providers = context.registration.config?.providers ?? [];
    // Providers commonly share their patterns: each distinct one is judged once (src/lib/memo.ts).
    const problemOf = oncePerInput(matchImagePatternProblem);
    return providers.flatMap((provider) =>
      provider.matchImages.flatMap((pattern): Finding[] => {
        const problem = problemOf(pattern);
        if (!problem) return [];
        return [{
          id: 'match-image-never-matches',
          severity: 'warning',
          message: `matchImages pattern ${JSON.stringify(pattern)} of provider "${provider.name}" can never match an image: ${problem}.`,
          path: context.flags.configPath,
          provider: provider.name,
          remediation: 'Use a pattern without a scheme, with globs only in host labels, e.g. "*.azurecr.io" or "registry.example.com/team".',
        }];
      }),
    );
  },
};

export const ignoredFieldsCheck: Check = {
  id: 'config-fields-ignored',
  title: 'Fields kubelet <= 1.31 drops and 1.32+ rejects',
  appliesTo: (traits) => !traits.strictDecoding,
  run(context) {
    return context.registration.droppedFields.map(({ path, fields }): Finding => ({
      id: 'config-fields-ignored',
      severity: 'warning',
      message: `Kubelet ignores the unknown field${fields.length > 1 ? 's' : ''} ${fields.map((f) => `"${f}"`).join(', ')} in ${path}; kubelet 1.32 and newer decode strictly and will refuse to start with this file.`,
      path,
      remediation: `Remove or correct ${fields.length > 1 ? 'these fields' : 'this field'} in ${path} before upgrading kubelet to 1.32.`,
    }));
  },
};
