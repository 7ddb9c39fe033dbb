// Browser code: a run's activation.json in the Outputs tab (what fired, the skill's files opened, contamination).
export const scriptActivation = `
function disclosureText(d) {
  const opened = d.files.filter(function (f) { return f.opened_in > 0; })
    .map(function (f) { return f.path + " opened in " + f.opened_in; });
  return d.runs + " runs of this eval (" + d.configuration + "), the skill fired in " + d.fired + ": " +
    (opened.length ? opened.join(", ") : "no bundled file opened") +
    (d.never_opened.length ? "; never opened: " + d.never_opened.join(", ") : "");
}

function renderActivation(run) {
  const a = run.activation;
  if (!a) return [h("h3", { text: "Skill activation" }), empty("No activation.json (a run written before skillgym recorded it).")];
  const fired = a.fired.length
    ? a.fired.map(function (f) { return f.skill + " (turn " + f.turn + ", " + (f.via === "tool" ? "skill tool" : "read its SKILL.md") + ")"; }).join(", ")
    : "no skill loaded";
  const files = a.files_opened.length
    ? h("ul", { class: "activation-files" }, a.files_opened.map(function (f) {
        return h("li", { text: f.path + " · " + f.kind + " · " + f.how + " · turn " + f.turn });
      }))
    : empty("No file of the skill was opened.");
  const instead = a.tools_instead && a.tools_instead.length
    ? h("p", { class: "muted", text: "Tools used instead: " + a.tools_instead.map(function (t) { return t.tool + " ×" + t.calls; }).join(", ") })
    : null;
  return [
    h("h3", { text: "Skill activation" }),
    a.contaminated
      ? h("p", { class: "problem contaminated", text: "CONTAMINATED — left out of the delta: " + a.contamination.join("; ") })
      : null,
    h("p", { class: "activation-fired", text: "Fired: " + fired }),
    files,
    instead,
    run.disclosure ? h("p", { class: "disclosure", text: "Disclosure: " + disclosureText(run.disclosure) }) : null,
  ];
}
`;
