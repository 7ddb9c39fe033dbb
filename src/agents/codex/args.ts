import type { ToolPolicy } from "../agent.js";
import { SIM_KEY_VARIABLE } from "./environment.js";

/** Codex's sandbox for each tool policy: evals write inside their workspace only; judges only read. */
export type CodexSandbox = "workspace-write" | "read-only";

export function sandboxFor(tools: ToolPolicy | undefined): CodexSandbox {
  return tools === "read-only" ? "read-only" : "workspace-write";
}

export interface CodexArgsRequest {
  prompt: string;
  model?: string | undefined;
  tools?: ToolPolicy | undefined;
  systemPrompt?: string | undefined;
  /** Base URL of `skillgym sim` (no `/v1`): a custom provider speaking the Responses API, never OPENAI_BASE_URL. */
  simulatorUrl?: string | undefined;
  /**
   * The provider's base URL (with `/v1`, as Codex uses it) for this run alone: a recording proxy in front of the
   * simulator's or OpenAI's. Under the simulator it is the custom provider's `base_url`; else `openai_base_url`.
   */
  apiBaseUrl?: string | undefined;
}

// A TOML basic string: JSON's escapes (\", \\, \n, \uXXXX) are all valid TOML.
const toml = (value: string) => JSON.stringify(value);

/** The base URL Codex sends the simulator's requests to: its Responses API under `/v1`. */
export function simulatorApiUrl(simulatorUrl: string): string {
  return `${simulatorUrl.replace(/\/$/, "")}/v1`;
}

/** The command line of one headless `codex exec` run. */
export function codexArgs(request: CodexArgsRequest): string[] {
  const args = [
    "exec",
    "--json",
    "--ephemeral",
    "--skip-git-repo-check",
    "--sandbox",
    sandboxFor(request.tools),
    "-c",
    'approval_policy="never"',
    "-c",
    "check_for_update_on_startup=false",
  ];
  // /tmp stays read-only: runs write inside their workspace and their own TMPDIR only, and the sandbox never leaves
  // its mount points (`/tmp/.git`, …) in the shared /tmp when a run is ended mid-command.
  if (sandboxFor(request.tools) === "workspace-write")
    args.push("-c", "sandbox_workspace_write.exclude_slash_tmp=true");
  if (request.model) args.push("--model", request.model);
  if (request.simulatorUrl) {
    const provider = [
      'name="skillgym-sim"',
      `base_url=${toml(request.apiBaseUrl ?? simulatorApiUrl(request.simulatorUrl))}`,
      'wire_api="responses"',
      `env_key="${SIM_KEY_VARIABLE}"`,
      // Faults injected by the simulator reach skillgym's own retry logic instead of Codex's.
      "request_max_retries=0",
      "stream_max_retries=0",
    ].join(",");
    args.push("-c", "model_provider=skillgym-sim", "-c", `model_providers.skillgym-sim={${provider}}`);
  } else if (request.apiBaseUrl) args.push("-c", `openai_base_url=${toml(request.apiBaseUrl)}`);
  if (request.systemPrompt !== undefined)
    args.push("-c", `developer_instructions=${toml(request.systemPrompt)}`);
  args.push("--", request.prompt);
  return args;
}
