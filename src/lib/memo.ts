/**
 * The one memo node-check uses for work that repeats per credential provider: a config commonly
 * gives many providers the same value (1,000 providers with one matchImages pattern and one
 * "#!/bin/sh" interpreter cost 1,000 times the same work).
 *
 * `oncePerInput(compute)` answers each distinct input by calling `compute` once, and gives that
 * same answer again. Only where the answer depends on nothing but the input while the caller
 * holds the returned function (a pure function; or one check's reading of the node through one
 * RootFs), and held only as long as that: a local of the loop, never process-wide, so nothing
 * outlives a check (serve re-checks for months) and there is no cache to bound.
 */
export function oncePerInput<V>(compute: (input: string) => V): (input: string) => V {
  const answers = new Map<string, V>();
  return (input) => {
    if (answers.has(input)) return answers.get(input) as V;
    const answer = compute(input);
    answers.set(input, answer);
    return answer;
  };
}

/**
 * `oncePerInput` for work that repeats per kubelet minor on one node (`check` replays 14): the
 * answers are held per `owner`, an object of that one check (the node model's files), in a
 * WeakMap, so they live exactly as long as the check's model does. Only for answers that depend on
 * nothing but the owner and the input.
 */
export function oncePerOwner<O extends object, V>(compute: (owner: O, input: string) => V): (owner: O, input: string) => V {
  const byOwner = new WeakMap<O, Map<string, V>>();
  return (owner, input) => {
    let answers = byOwner.get(owner);
    if (answers === undefined) byOwner.set(owner, (answers = new Map()));
    if (answers.has(input)) return answers.get(input) as V;
    const answer = compute(owner, input);
    answers.set(input, answer);
    return answer;
  };
}
