/** "Did you mean": the known words closest to a mistyped one (commands, options, finding ids). */

/**
 * Levenshtein distance; past `bound` it stops and answers bound + 1 (a kubelet flag table has
 * hundreds of names, and only the close ones matter).
 */
export function editDistance(a: string, b: string, bound = Infinity): number {
  if (Math.abs(a.length - b.length) > bound) return bound + 1;
  // Two typed rows and no Math.min: under the launcher's --no-opt each cell is interpreted, and
  // `check` asks for a mistyped flag against 14 flag tables of hundreds of names.
  let previous = new Int32Array(b.length + 1);
  let current = new Int32Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      let d = previous[j - 1]! + (ai === b.charCodeAt(j - 1) ? 0 : 1);
      const up = previous[j]! + 1;
      if (up < d) d = up;
      const left = current[j - 1]! + 1;
      if (left < d) d = left;
      current[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > bound) return bound + 1;
    [previous, current] = [current, previous];
  }
  return Math.min(previous[b.length]!, bound + 1);
}

/**
 * The candidates within a third of the word's length (at least 2 edits), closest first; a
 * candidate that contains the word, or is contained in it, counts as close too.
 */
export function closeMatches(word: string, candidates: readonly string[], limit = 3): string[] {
  const bound = Math.max(2, Math.floor(word.length / 3));
  const letters = letterCounts(word);
  const ascii = asciiCounts(word);
  const close: { candidate: string; distance: number }[] = [];
  for (const candidate of candidates) {
    const contains = word.length >= 4 && (candidate.includes(word) || word.includes(candidate));
    // The length difference is a lower bound too, and costs nothing (check asks 14 flag tables).
    if (!contains && (Math.abs(candidate.length - word.length) > bound || (ascii ? asciiLetterBound(ascii, word.length, candidate) : letterBound(letters, candidate)) > bound)) continue;
    const distance = editDistance(word, candidate, contains ? Infinity : bound);
    if (distance <= bound || contains) close.push({ candidate, distance });
  }
  return close
    .sort((x, y) => x.distance - y.distance || x.candidate.localeCompare(y.candidate))
    .slice(0, limit)
    .map(({ candidate }) => candidate);
}

/** How often each UTF-16 code unit occurs in `word`. */
function letterCounts(word: string): Map<number, number> {
  const counts = new Map<number, number>();
  for (let i = 0; i < word.length; i++) counts.set(word.charCodeAt(i), (counts.get(word.charCodeAt(i)) ?? 0) + 1);
  return counts;
}

/** letterCounts for an ASCII word, as an array (no Map per candidate); undefined for any other word. */
function asciiCounts(word: string): Int32Array | undefined {
  const counts = new Int32Array(128);
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c >= 128) return undefined;
    counts[c]!++;
  }
  return counts;
}

const scratch = new Int32Array(128);

/** letterBound for an ASCII word's counts (a candidate's other letters are all extra). */
function asciiLetterBound(letters: Int32Array, wordLength: number, candidate: string): number {
  scratch.set(letters);
  let extra = 0;
  let matched = 0;
  for (let i = 0; i < candidate.length; i++) {
    const c = candidate.charCodeAt(i);
    if (c < 128 && scratch[c]! > 0) {
      scratch[c]!--;
      matched++;
    } else extra++;
  }
  const missing = wordLength - matched;
  return Math.max(Math.ceil((extra + missing) / 2), Math.abs(extra - missing));
}

/**
 * A lower bound of the edit distance from the word whose letters are counted to `candidate`: one
 * edit changes the count of at most two letters by one each, so it is at least half the
 * difference of the counts (and at least the difference of the lengths).
 */
function letterBound(letters: ReadonlyMap<number, number>, candidate: string): number {
  const rest = new Map(letters);
  let extra = 0;
  for (let i = 0; i < candidate.length; i++) {
    const c = candidate.charCodeAt(i);
    const n = rest.get(c) ?? 0;
    if (n > 0) rest.set(c, n - 1);
    else extra++;
  }
  let missing = 0;
  for (const n of rest.values()) missing += n;
  return Math.max(Math.ceil((extra + missing) / 2), Math.abs(extra - missing));
}

/** " Did you mean X?" / " Did you mean X or Y?", or "" when nothing is close. */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const close = closeMatches(word, candidates);
  if (close.length === 0) return '';
  return ` Did you mean ${close.length === 1 ? close[0] : `${close.slice(0, -1).join(', ')} or ${close[close.length - 1]}`}?`;
}

/** --ignore ids that are not finding ids, each with the close known ids ("did you mean"). */
export function unknownIgnoreIds(ids: readonly string[], known: readonly string[]): { id: string; close: string[] }[] {
  return ids.filter((id) => !known.includes(id)).map((id) => ({ id, close: closeMatches(id, known) }));
}
