import type { FirstTurn } from "./first-turn.js";
import type { RecordedRequest } from "./recording-proxy.js";

/** What replay needs to know of one agent: how to find its first request, send it again and read the answer. */
export interface ReplayAdapter {
  agent: string;
  /**
   * The variables of the provider's API key the agent reads, the first set one used: a replay needs one (a
   * subscription login is the agent's alone).
   */
  apiKeyVariables: readonly string[];
  /** The agent's first real model request of the capture run: the one with tools and the marker in it. */
  isFirstRequest(request: RecordedRequest, marker: string): boolean;
  /** Headers never kept from the capture: credentials, the session, the hop's own. */
  droppedHeaders: readonly string[];
  /** The headers a replay adds: credentials, and a session of its own as a new agent run would have. */
  replayHeaders(apiKey: string): Record<string, string>;
  readTurn(contentType: string, text: string): FirstTurn;
  /**
   * False for a query the agent rewrites before its first request (a command, a file reference it inlines): the
   * captured request with that query in the marker's place is not what the agent would send, so the agent makes the
   * run. Absent: every query is sent as written.
   */
  sendsAsIs?(query: string): boolean;
  /** The skill a call of the first turn loads, by the agent's own rule. */
  skillOf(call: FirstTurn["calls"][number]): string | undefined;
}

export { REPLAY_HEADER } from "../../contracts/run-marker.js";

/** The provider's API key a replay sends, from the first of the agent's variables that is set. */
export function replayKey(
  adapter: Pick<ReplayAdapter, "apiKeyVariables">,
  env: NodeJS.ProcessEnv,
): string | undefined {
  for (const name of adapter.apiKeyVariables) if (env[name]) return env[name];
  return undefined;
}

/** The agent's key variables as a message names them: `OPENAI_API_KEY or CODEX_API_KEY`. */
export function replayKeyNames(adapter: Pick<ReplayAdapter, "apiKeyVariables">): string {
  return adapter.apiKeyVariables.join(" or ");
}
