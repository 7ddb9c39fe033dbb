// Browser code: a small Markdown subset (headings, lists, quotes, fences, tables, emphasis, code, http links)
// built as DOM nodes whose text is set with textContent: the source is never parsed as HTML.
export const scriptMarkdown = String.raw`
const FENCE = /^\s{0,3}(\x60{3,}|~{3,})\s*([\w+.-]*)/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;
const ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;
const INLINE = /(\x60+)([^\x60]|[^\x60][\s\S]*?[^\x60])\1(?!\x60)|\*\*(?=\S)([\s\S]*?\S)\*\*|__(?=\S)([\s\S]*?\S)__|\*(?=[^\s*])([^*]*?[^\s*]|[^\s*])\*|\b_(?=[^\s_])([^_]*?[^\s_]|[^\s_])_\b|\[([^\]\n]+)\]\(([^)\s]+)\)/g;

function inline(parent, text) {
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) parent.append(text.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[1]) parent.append(h("code", { text: m[2] }));
    else if (m[3] !== undefined || m[4] !== undefined) inline(parent.appendChild(h("strong")), m[3] !== undefined ? m[3] : m[4]);
    else if (m[5] !== undefined || m[6] !== undefined) inline(parent.appendChild(h("em")), m[5] !== undefined ? m[5] : m[6]);
    else if (m[7] !== undefined) {
      if (/^https?:\/\//i.test(m[8])) {
        const link = h("a", { href: m[8], rel: "noopener noreferrer nofollow", target: "_blank" });
        inline(link, m[7]);
        parent.append(link);
      } else parent.append(m[0]);
    }
  }
  if (last < text.length) parent.append(text.slice(last));
  return parent;
}

function closesFence(line, marker) {
  const t = line.trim();
  if (t.length < marker.length) return false;
  for (let k = 0; k < t.length; k++) if (t.charAt(k) !== marker.charAt(0)) return false;
  return true;
}

function startsBlock(line) {
  return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || ITEM.test(line);
}

function tableCells(line) {
  let s = line.trim();
  if (s.charAt(0) === "|") s = s.slice(1);
  if (s.charAt(s.length - 1) === "|") s = s.slice(0, -1);
  return s.split("|").map(function (c) { return c.trim(); });
}

function renderMarkdown(source) {
  const root = h("div", { class: "md" });
  const lines = String(source).replace(/\r\n?/g, "\n").split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    let m;
    if (line.trim() === "") { i++; continue; }
    if ((m = FENCE.exec(line))) {
      const marker = m[1];
      const body = [];
      i++;
      while (i < lines.length && !closesFence(lines[i], marker)) {
        body.push(lines[i]);
        i++;
      }
      i++;
      root.append(h("pre", null, h("code", { text: body.join("\n") })));
      continue;
    }
    if ((m = HEADING.exec(line))) {
      root.append(inline(h("h" + m[1].length), m[2]));
      i++;
      continue;
    }
    if (RULE.test(line)) { root.append(h("hr")); i++; continue; }
    if (QUOTE.test(line)) {
      const quoted = [];
      while (i < lines.length && (m = QUOTE.exec(lines[i]))) { quoted.push(m[1]); i++; }
      const quote = h("blockquote");
      quote.append(renderMarkdown(quoted.join("\n")));
      root.append(quote);
      continue;
    }
    if ((m = ITEM.exec(line))) {
      const ordered = /\d/.test(m[2]);
      const list = h(ordered ? "ol" : "ul");
      while (i < lines.length && (m = ITEM.exec(lines[i])) && /\d/.test(m[2]) === ordered) {
        const parts = [m[3]];
        i++;
        while (i < lines.length && /^\s{2,}\S/.test(lines[i]) && !ITEM.test(lines[i])) { parts.push(lines[i].trim()); i++; }
        list.append(inline(h("li"), parts.join(" ")));
      }
      root.append(list);
      continue;
    }
    if (line.indexOf("|") !== -1 && i + 1 < lines.length && TABLE_SEPARATOR.test(lines[i + 1])) {
      const table = h("table");
      const head = h("tr");
      for (const cell of tableCells(line)) head.append(inline(h("th"), cell));
      table.append(h("thead", null, head));
      const body = h("tbody");
      i += 2;
      while (i < lines.length && lines[i].indexOf("|") !== -1 && lines[i].trim() !== "") {
        const row = h("tr");
        for (const cell of tableCells(lines[i])) row.append(inline(h("td"), cell));
        body.append(row);
        i++;
      }
      table.append(body);
      root.append(table);
      continue;
    }
    const paragraph = [line.trim()];
    i++;
    while (i < lines.length && lines[i].trim() !== "" && !startsBlock(lines[i])) { paragraph.push(lines[i].trim()); i++; }
    root.append(inline(h("p"), paragraph.join("\n")));
  }
  return root;
}
`;
