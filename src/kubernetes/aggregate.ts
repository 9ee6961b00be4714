/**
 * utilerrors.NewAggregate(errs).Error() of k8s.io/apimachinery (pkg/util/errors/errors.go, the
 * same function at v0.24.17, v0.25.16 and v0.37.2): no error is "", one is itself, several are
 * "[a, b]" with repeated messages dropped (a repeat alone is printed bare).
 * field.ErrorList.ToAggregate drops repeats before it, to the same effect.
 */
export function aggregateError(messages: readonly string[]): string {
  if (messages.length === 0) return '';
  if (messages.length === 1) return messages[0]!;
  const seen = [...new Set(messages)];
  return seen.length === 1 ? seen[0]! : `[${seen.join(', ')}]`;
}
