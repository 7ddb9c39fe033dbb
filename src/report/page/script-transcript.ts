// Browser code: a run's transcript.md, one collapsed section per step (its summary names the tools called, or
// begins its first line),
// each rendered by renderMarkdown, so its text is never parsed as HTML.
export const scriptTranscript = String.raw`
const TOOL_CALL = /^\*\*Tool call: (.+)\*\*\s*$/;
const SECTION = /^##\s+(.*?)\s*$/;

// Splits at "## " headings outside code fences: a tool result may itself hold "## " lines.
function transcriptSections(text) {
  const lines = String(text).replace(/\r\n?/g, "\n").split("\n");
  const sections = [];
  let current = { title: null, lines: [] };
  let marker = null;
  for (const line of lines) {
    let m;
    if (marker) {
      if (closesFence(line, marker)) marker = null;
      current.lines.push(line);
    } else if ((m = FENCE.exec(line))) {
      marker = m[1];
      current.lines.push(line);
    } else if ((m = SECTION.exec(line))) {
      sections.push(current);
      current = { title: m[1], lines: [] };
    } else current.lines.push(line);
  }
  sections.push(current);
  return sections.filter(function (s) { return s.title !== null || s.lines.some(function (l) { return l.trim() !== "" && !/^#\s/.test(l); }); });
}

function sectionDigest(section) {
  const tools = [];
  let marker = null;
  let said = "";
  for (const line of section.lines) {
    let m;
    if (marker && closesFence(line, marker)) marker = null;
    else if (!marker && (m = FENCE.exec(line))) marker = m[1];
    else if (!marker && (m = TOOL_CALL.exec(line))) tools.push(m[1]);
    else if (!said && line.trim() && !/^\*\*Result/.test(line)) said = line.trim().replace(/^[_*]+|[_*]+$/g, "");
  }
  if (tools.length) return tools.join(", ");
  return said.length > 90 ? said.slice(0, 90) + "…" : said;
}

function renderTranscript(run) {
  const transcript = run.transcript;
  const head = [h("h3", { text: "Transcript" })];
  if (!transcript) return head.concat(empty("No transcript.md for this run."));
  const sections = transcriptSections(transcript.text);
  const list = h("div", { class: "transcript" });
  sections.forEach(function (section, i) {
    const title = section.title === null ? "Start" : section.title;
    const digest = sectionDigest(section);
    const open = title === "Result" || (i === sections.length - 1 && sections.length === 1);
    const box = h("details", { class: "transcript-step", open: open }, [
      h("summary", null, [h("span", { class: "step-title", text: title }), digest ? h("span", { class: "step-digest", text: digest }) : null]),
    ]);
    box.append(renderMarkdown(section.lines.join("\n")));
    list.append(box);
  });
  const note = [
    sizeText(transcript.size),
    transcript.truncated ? "first part shown; the rest is in transcript.md in the run folder" : null,
  ].filter(Boolean).join(" · ");
  const toggle = h("button", {
    class: "transcript-toggle",
    text: "Expand all",
    onclick: function () {
      const opening = toggle.textContent === "Expand all";
      for (const box of list.querySelectorAll("details.transcript-step")) box.open = opening;
      toggle.textContent = opening ? "Collapse all" : "Expand all";
    },
  });
  return head.concat(
    h("div", { class: "transcript-bar" }, [
      h("span", { class: "muted transcript-note" + (transcript.truncated ? " truncated" : ""), text: note }),
      toggle,
      run.transcript_url ? h("a", { href: run.transcript_url, download: "transcript.md", text: "Download transcript.md" }) : null,
    ]),
    list,
  );
}
`;
