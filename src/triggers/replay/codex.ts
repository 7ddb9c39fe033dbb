import { randomUUID } from "node:crypto";
import { skillReadBy } from "../../agents/codex/skill-load.js";
import type { ReplayAdapter } from "./adapter.js";
import type { FirstTurn } from "./first-turn.js";
import { readOpenAiTurn } from "./openai-turn.js";

// A model request of Codex's own turn: a Responses call with its tools (not a compaction at `/responses/compact`, a
// model list, nor any request without tools). Under the simulator's provider the tools are the body's `tools`; to
// OpenAI's own provider Codex 0.169 sends them as an `additional_tools` item of the input instead.
function isAgentTurn(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as { tools?: unknown; input?: unknown };
    const listed = (tools: unknown) => Array.isArray(tools) && tools.length > 0;
    if (listed(parsed.tools)) return true;
    return (
      Array.isArray(parsed.input) &&
      parsed.input.some(
        (item: { type?: unknown; tools?: unknown } | null) =>
          item?.type === "additional_tools" && listed(item.tools),
      )
    );
  } catch {
    return false;
  }
}

const words = (v: unknown[]): string[] => v.filter((w): w is string => typeof w === "string");

// `["bash", "-lc", "<script>"]` is the script; any other argument list, its words.
function commandOfArgv(argv: string[]): string {
  if (argv.length === 3) {
    const [shell, flag, script] = argv as [string, string, string];
    if (/(?:^|\/)(?:ba|z)?sh$/.test(shell) && /^-l?c$/.test(flag)) return script;
  }
  return argv.join(" ");
}

// The shell tools Codex gives a model, by version and model; each runs as a `command_execution` in Codex's stream.
const SHELL_TOOLS = new Set(["exec_command", "shell_command", "shell", "local_shell", "container.exec"]);

/**
 * The shell command a call of Codex's runs, whichever shell tool its model was given: `exec_command` (`cmd`),
 * `shell_command` (`command`, a string), `shell` or a local shell (`command`, an argument list). Any other tool: none.
 */
export function commandOfCall(call: FirstTurn["calls"][number]): string | undefined {
  if (!SHELL_TOOLS.has(call.name)) return undefined;
  const { cmd, command } = call.input;
  if (typeof cmd === "string") return cmd;
  if (typeof command === "string") return command;
  if (Array.isArray(command)) return commandOfArgv(words(command));
  return undefined;
}

/** Codex CLI on OpenAI's Responses API: no skill tool; a skill is loaded by reading its SKILL.md in a shell call. */
export const codexReplay: ReplayAdapter = {
  agent: "codex",
  apiKeyVariables: ["OPENAI_API_KEY", "CODEX_API_KEY"],
  isFirstRequest: (request, marker) =>
    request.method === "POST" &&
    /\/responses(\?|$)/.test(request.path) &&
    request.body.includes(marker) &&
    isAgentTurn(request.body),
  // Codex names its thread in four headers and describes the turn in a fifth; a replay is a thread of its own.
  droppedHeaders: [
    "authorization",
    "chatgpt-account-id",
    "session-id",
    "session_id",
    "thread-id",
    "x-client-request-id",
    "x-codex-window-id",
    "x-codex-turn-metadata",
    "host",
    "connection",
    "content-length",
    "transfer-encoding",
    "accept-encoding",
  ],
  replayHeaders: (apiKey) => {
    const thread = randomUUID();
    return {
      authorization: `Bearer ${apiKey}`,
      "session-id": thread,
      "thread-id": thread,
      "x-client-request-id": thread,
      "x-codex-window-id": `${thread}:0`,
    };
  },
  readTurn: readOpenAiTurn,
  // The agent's own rule: a reader run on a SKILL.md under a skills root loads that skill.
  skillOf: (call) => {
    const command = commandOfCall(call);
    return command === undefined ? undefined : skillReadBy(command);
  },
};
