import { randomUUID } from "node:crypto";
import { skillLoadedBy } from "../../agents/claude-code/skill-load.js";
import type { ReplayAdapter } from "./adapter.js";
import { readAnthropicTurn } from "./anthropic-turn.js";

// Side requests (a title, the quota check) come without tools, count_tokens at its own path.
function isAgentTurn(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as { tools?: unknown };
    return Array.isArray(parsed.tools) && parsed.tools.length > 0;
  } catch {
    return false;
  }
}

/** Claude Code on the Anthropic Messages API: skills by its Skill tool or a Read of SKILL.md. */
export const claudeCodeReplay: ReplayAdapter = {
  agent: "claude-code",
  apiKeyVariables: ["ANTHROPIC_API_KEY"],
  isFirstRequest: (request, marker) =>
    request.method === "POST" &&
    /^\/v1\/messages(\?|$)/.test(request.path) &&
    request.body.includes(marker) &&
    isAgentTurn(request.body),
  droppedHeaders: [
    "x-api-key",
    "authorization",
    "x-claude-code-session-id",
    "host",
    "connection",
    "content-length",
    "transfer-encoding",
    "accept-encoding",
  ],
  replayHeaders: (apiKey) => ({ "x-api-key": apiKey, "x-claude-code-session-id": randomUUID() }),
  readTurn: readAnthropicTurn,
  // In print mode a prompt that starts with `/` is run as a slash command, not sent as it stands: the agent's run.
  sendsAsIs: (query) => !query.trimStart().startsWith("/"),
  skillOf: (call) => skillLoadedBy({ kind: "tool_use", ...call }),
};
