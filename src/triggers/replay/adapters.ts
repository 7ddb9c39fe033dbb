import type { ReplayAdapter } from "./adapter.js";
import { claudeCodeReplay } from "./claude-code.js";
import { codexReplay } from "./codex.js";
import { geminiReplay } from "./gemini.js";

const adapters: readonly ReplayAdapter[] = [claudeCodeReplay, codexReplay, geminiReplay];

/** The agents whose trigger runs can be screened by replay. */
export const agentsWithReplay: readonly string[] = adapters.map((a) => a.agent);

export function replayAdapterFor(agent: string): ReplayAdapter | undefined {
  return adapters.find((a) => a.agent === agent);
}
