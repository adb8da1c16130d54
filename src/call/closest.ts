/** The names closest to `name` (at most `max`), for "did you mean" hints. */
export function closestNames(name: string, candidates: readonly string[], max = 3): string[] {
  const wanted = name.toLowerCase();
  const within = (candidate: string) => Math.max(3, Math.floor(candidate.length / 2));
  const scored = candidates
    // The distance is at least the difference in length; checking that first keeps a huge
    // name (a 1 MB "tool") from costing seconds of Levenshtein against every tool.
    .filter((candidate) => Math.abs(wanted.length - candidate.length) <= within(candidate))
    .map((candidate) => ({ candidate, distance: levenshtein(wanted, candidate) }))
    .filter(({ candidate, distance }) => distance <= within(candidate))
    .sort((a, b) => a.distance - b.distance);
  return scored.slice(0, max).map(({ candidate }) => candidate);
}

function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
