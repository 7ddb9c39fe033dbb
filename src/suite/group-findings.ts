import type { Finding } from "../findings.js";

const LAST_INDEX = /\[(\d+)\](?!.*\[\d+\])/;

// The same error over many entries of one list reads as one line: `assertions[0..33]: expected …`.
export function groupFindings(findings: readonly Finding[]): Finding[] {
  const groups = new Map<string, { first: Finding; indices: number[] }>();
  const out: (Finding | string)[] = [];
  for (const finding of findings) {
    const match = finding.location === undefined ? null : LAST_INDEX.exec(finding.location);
    if (!match || finding.location === undefined) {
      out.push(finding);
      continue;
    }
    const pattern = finding.location.replace(LAST_INDEX, "[#]");
    const key = JSON.stringify([
      finding.severity,
      finding.code,
      finding.file,
      pattern,
      finding.message,
      finding.hint,
    ]);
    const group = groups.get(key);
    if (group) group.indices.push(Number(match[1]));
    else {
      groups.set(key, { first: finding, indices: [Number(match[1])] });
      out.push(key);
    }
  }
  return out.map((entry) => {
    if (typeof entry !== "string") return entry;
    const group = groups.get(entry);
    // Stryker disable next-line StringLiteral: equivalent, unreachable: every key names a group
    if (!group) throw new Error("unreachable: every key names a group");
    const { first, indices } = group;
    // Stryker disable next-line ConditionalExpression: equivalent, a single index would be rewritten to itself
    if (indices.length === 1) return first;
    // Stryker disable next-line StringLiteral: equivalent, only findings with a location are grouped
    return { ...first, location: (first.location ?? "").replace(LAST_INDEX, `[${ranges(indices)}]`) };
  });
}

/** `0..3, 7, 9..10` */
export function ranges(indices: readonly number[]): string {
  const sorted = [...new Set(indices)].sort((a, b) => a - b);
  const runs: [number, number][] = [];
  for (const n of sorted) {
    const last = runs.at(-1);
    if (last && n === last[1] + 1) last[1] = n;
    else runs.push([n, n]);
  }
  return runs.map(([start, end]) => (start === end ? `${start}` : `${start}..${end}`)).join(", ");
}
