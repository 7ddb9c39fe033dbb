// Just enough Markdown for the docs tests: fenced blocks, code spans, level-2 sections, headings' anchors, links.

export interface Fence {
  /** The info string after the opening fence, e.g. "sh runnable exit=2". */
  info: string;
  lines: string[];
  /** 1-based line of the opening fence. */
  line: number;
}

export interface Span {
  text: string;
  line: number;
}

export interface Section {
  /** The heading's text without the leading `## `; "" for what comes before the first level-2 heading. */
  heading: string;
  line: number;
  fences: Fence[];
  spans: Span[];
  /** The section's lines with fenced blocks left out. */
  prose: string[];
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})\s*(.*)$/;

/** Splits a page into its fenced blocks and everything else (fence lines blanked, so line numbers hold). */
export function splitFences(text: string): { fences: Fence[]; prose: string[] } {
  const lines = text.split("\n");
  const fences: Fence[] = [];
  const prose: string[] = [];
  let open: { marker: string; fence: Fence } | undefined;
  lines.forEach((raw, i) => {
    const line = raw.replace(/\r$/, "");
    if (open) {
      const close = line.trim();
      if (close.startsWith(open.marker) && /^(`+|~+)$/.test(close) && close[0] === open.marker[0])
        open = undefined;
      else open.fence.lines.push(line);
      prose.push("");
      return;
    }
    const match = FENCE.exec(line);
    if (match?.[1] && !(match[1].startsWith("`") && (match[2] ?? "").includes("`"))) {
      const fence: Fence = { info: (match[2] ?? "").trim(), lines: [], line: i + 1 };
      fences.push(fence);
      open = { marker: match[1], fence };
      prose.push("");
      return;
    }
    prose.push(line);
  });
  return { fences, prose };
}

/** Inline code spans of the prose (a span may run over a line break, as in CommonMark). */
export function codeSpans(prose: string[], firstLine = 1): Span[] {
  const text = prose.join("\n");
  const lineAt = (offset: number) => firstLine + text.slice(0, offset).split("\n").length - 1;
  const spans: Span[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] === "\\") {
      i += 2;
      continue;
    }
    if (text[i] !== "`") {
      i++;
      continue;
    }
    let n = 0;
    while (text[i + n] === "`") n++;
    const ticks = "`".repeat(n);
    let j = text.indexOf(ticks, i + n);
    while (j !== -1 && (text[j + n] === "`" || text[j - 1] === "`")) j = text.indexOf(ticks, j + 1);
    // A span never crosses a blank line (a paragraph's end).
    if (j === -1 || /\n\s*\n/.test(text.slice(i + n, j))) {
      i += n;
      continue;
    }
    spans.push({
      text: text
        .slice(i + n, j)
        .replace(/\n/g, " ")
        .trim(),
      line: lineAt(i),
    });
    i = j + n;
  }
  return spans;
}

/** The page cut at its level-2 headings, each part with its fences and code spans. */
export function sections(text: string): Section[] {
  const { fences, prose } = splitFences(text);
  const starts: { heading: string; line: number }[] = [{ heading: "", line: 1 }];
  prose.forEach((line, i) => {
    const match = /^## (.+)$/.exec(line);
    if (match?.[1]) starts.push({ heading: match[1].trim(), line: i + 1 });
  });
  return starts.map((start, k) => {
    const end = starts[k + 1]?.line ?? prose.length + 1;
    const part = prose.slice(start.line - 1, end - 1);
    return {
      heading: start.heading,
      line: start.line,
      fences: fences.filter((f) => f.line >= start.line && f.line < end),
      spans: codeSpans(part, start.line),
      prose: part,
    };
  });
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2, … */
export function anchors(text: string): Set<string> {
  const { prose } = splitFences(text);
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const line of prose) {
    const match = /^#{1,6} (.+?)\s*#*$/.exec(line);
    if (!match?.[1]) continue;
    const base = match[1]
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** Every inline link and image target of the prose, with its line. */
export function links(text: string): { target: string; line: number }[] {
  const { prose } = splitFences(text);
  const found: { target: string; line: number }[] = [];
  const joined = prose.join("\n");
  for (const match of joined.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const line = joined.slice(0, match.index).split("\n").length;
    if (match[1]) found.push({ target: match[1], line });
  }
  return found;
}
