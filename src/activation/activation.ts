import type { AgentEvent } from "../agents/events.js";
import type { Activation, ActivationFired, OpenedFile, ToolTally } from "../contracts/activation.js";
import { bundledKind, filesNamed, inputStrings } from "./bundled-files.js";

export interface ActivationInput {
  /** The skill under test, by its own name. */
  skill: string;
  configuration: string;
  agent?: string;
  /** Every skill the run staged: install name → the skill's own name (a synthetic name maps to the real one). */
  staged: Record<string, string>;
  /** The skill's files, relative to its folder. */
  bundledFiles: readonly string[];
  /** Absolute folders holding the skill outside the workspace (the user's own copy), to catch a leaked read. */
  skillFolders: readonly string[];
  /** The agent's own skills, listed in every run. */
  builtins: readonly string[];
}

// A model turn is one assistant message; adapters without message ids start a new turn after each tool result.
function turnCounter() {
  let turn = 0;
  let lastMessage: string | undefined;
  let afterResult = true;
  return (event: AgentEvent): number => {
    if (event.kind === "tool_result") afterResult = true;
    if (event.kind !== "text" && event.kind !== "tool_use") return Math.max(turn, 1);
    const id = event.messageId;
    if (id !== undefined ? id !== lastMessage : afterResult) turn++;
    lastMessage = id;
    afterResult = false;
    return turn;
  };
}

function howOpened(tool: string | undefined): OpenedFile["how"] {
  return tool === "read" ? "read" : tool === "shell" ? "shell" : "other";
}

/** What a run did with the skill, from the agent-neutral events alone (so it holds for every adapter). */
export function activationOf(events: readonly AgentEvent[], input: ActivationInput): Activation {
  const turnOf = turnCounter();
  const fired: ActivationFired[] = [];
  const opened: OpenedFile[] = [];
  const tools = new Map<string, ToolTally>();
  const listed = new Set<string>();
  // The skill's own files in the workspace are under its install names; outside, under its own name or folders.
  const folders = [
    ...Object.entries(input.staged)
      .filter(([, real]) => real === input.skill)
      .map(([install]) => install),
    input.skill,
    ...input.skillFolders,
  ];
  for (const event of events) {
    const turn = turnOf(event);
    if (event.kind === "init") for (const s of event.skills) listed.add(s);
    if (event.kind === "skill_load") {
      const skill = input.staged[event.skill] ?? event.skill;
      fired.push({
        skill,
        via: event.via,
        turn,
        ...(event.toolUseId ? { tool_use_id: event.toolUseId } : {}),
      });
    }
    if (event.kind !== "tool_use") continue;
    const key = `${event.name}\u0000${event.tool ?? "other"}`;
    const tally = tools.get(key) ?? { tool: event.name, kind: event.tool ?? "other", calls: 0 };
    tally.calls++;
    tools.set(key, tally);
    const named = new Set(
      inputStrings(event.input).flatMap((s) => filesNamed(s, folders, input.bundledFiles)),
    );
    for (const path of named)
      opened.push({ path, kind: bundledKind(path), how: howOpened(event.tool), turn, tool_use_id: event.id });
  }
  const skillFired = fired.some((f) => f.skill === input.skill);
  const expected = new Set([...Object.keys(input.staged), ...input.builtins]);
  const unexpected = [...listed].filter((s) => !expected.has(s)).sort();
  const contamination: string[] = [];
  if (input.configuration === "without_skill") {
    if (skillFired) contamination.push(`the skill ${input.skill} loaded in a run without it`);
    const read = [...new Set(opened.map((o) => o.path))];
    if (read.length > 0) contamination.push(`the run without the skill opened its files: ${read.join(", ")}`);
  }
  if (unexpected.length > 0)
    contamination.push(`the agent listed skills that were not staged: ${unexpected.join(", ")}`);
  return {
    skill: input.skill,
    configuration: input.configuration,
    ...(input.agent ? { agent: input.agent } : {}),
    fired,
    skill_fired: skillFired,
    bundled_files: [...input.bundledFiles],
    files_opened: opened,
    ...(skillFired ? {} : { tools_instead: [...tools.values()] }),
    unexpected_skills: unexpected,
    contaminated: contamination.length > 0,
    contamination,
  };
}
