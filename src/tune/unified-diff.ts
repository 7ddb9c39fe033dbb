type Op = { kind: " " | "-" | "+"; line: string };

// Above this many line pairs the LCS table gets too big; the file is shown as replaced whole.
const MAX_CELLS = 4_000_000;

function splitLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

function editScript(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  if (n * m > MAX_CELLS) {
    return [
      ...a.map((line) => ({ kind: "-" as const, line })),
      ...b.map((line) => ({ kind: "+" as const, line })),
    ];
  }
  // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  const width = m + 1;
  const lcs = new Uint32Array((n + 1) * width);
  // Stryker disable next-line ArithmeticOperator: equivalent, rows past n are out of the table: writes are dropped, reads are 0
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * width + j] =
        a[i] === b[j]
          ? (lcs[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(lcs[(i + 1) * width + j] ?? 0, lcs[i * width + j + 1] ?? 0);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push({ kind: " ", line: a[i] as string });
      i++;
      j++;
    } else if ((lcs[(i + 1) * width + j] ?? 0) >= (lcs[i * width + j + 1] ?? 0)) {
      ops.push({ kind: "-", line: a[i++] as string });
    } else {
      ops.push({ kind: "+", line: b[j++] as string });
    }
  }
  while (i < n) ops.push({ kind: "-", line: a[i++] as string });
  while (j < m) ops.push({ kind: "+", line: b[j++] as string });
  return ops;
}

function range(start: number, count: number): string {
  // A hunk that holds no line of a side names the line before it (diff's convention).
  const first = count === 0 ? start - 1 : start;
  return count === 1 ? `${first}` : `${first},${count}`;
}

/** A unified diff (`diff -u` style, `context` lines around each change) of two texts; "" when they are equal. */
export function unifiedDiff(
  oldText: string,
  newText: string,
  oldName: string,
  newName: string,
  context = 3,
): string {
  if (oldText === newText) return "";
  const ops = editScript(splitLines(oldText), splitLines(newText));
  const changed = ops.flatMap((op, index) => (op.kind === " " ? [] : [index]));
  if (changed.length === 0) return "";
  const hunks: [number, number][] = [];
  for (const index of changed) {
    const start = Math.max(0, index - context);
    const end = Math.min(ops.length, index + context + 1);
    const last = hunks.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else hunks.push([start, end]);
  }
  const out = [`--- ${oldName}`, `+++ ${newName}`];
  // Line numbers (1-based) at the start of each op.
  const oldAt: number[] = [];
  const newAt: number[] = [];
  let o = 1;
  let p = 1;
  for (const op of ops) {
    oldAt.push(o);
    newAt.push(p);
    if (op.kind !== "+") o++;
    if (op.kind !== "-") p++;
  }
  for (const [start, end] of hunks) {
    const slice = ops.slice(start, end);
    const oldCount = slice.filter((op) => op.kind !== "+").length;
    const newCount = slice.filter((op) => op.kind !== "-").length;
    out.push(
      `@@ -${range(oldAt[start] ?? 1, oldCount)} +${range(newAt[start] ?? 1, newCount)} @@`,
      ...slice.map((op) => `${op.kind}${op.line}`),
    );
  }
  return `${out.join("\n")}\n`;
}
