import { describe, expect, it } from "vitest";
import { codexArgs, sandboxFor, simulatorApiUrl } from "../../../src/agents/codex/args.js";

// The exact `codex exec` command line of a run, flag for flag: what Codex is told is the whole contract here.

const BASE = [
  "exec",
  "--json",
  "--ephemeral",
  "--skip-git-repo-check",
  "--sandbox",
  "workspace-write",
  "-c",
  'approval_policy="never"',
  "-c",
  "check_for_update_on_startup=false",
  "-c",
  "sandbox_workspace_write.exclude_slash_tmp=true",
];

describe("codexArgs", () => {
  it("runs an eval in a workspace-write sandbox that keeps /tmp read-only, the prompt last after --", () => {
    expect(codexArgs({ prompt: "--help me" })).toEqual([...BASE, "--", "--help me"]);
    expect(codexArgs({ prompt: "Write", tools: "eval" })).toEqual([...BASE, "--", "Write"]);
  });

  it("runs a judge read-only, with no /tmp setting of a writable sandbox", () => {
    expect(codexArgs({ prompt: "Judge", tools: "read-only" })).toEqual([
      "exec",
      "--json",
      "--ephemeral",
      "--skip-git-repo-check",
      "--sandbox",
      "read-only",
      "-c",
      'approval_policy="never"',
      "-c",
      "check_for_update_on_startup=false",
      "--",
      "Judge",
    ]);
  });

  it("names the model, and gives the system prompt as developer instructions in a TOML string", () => {
    expect(codexArgs({ prompt: "Go", model: "gpt-5", systemPrompt: 'Say "hi"\nthen stop' })).toEqual([
      ...BASE,
      "--model",
      "gpt-5",
      "-c",
      'developer_instructions="Say \\"hi\\"\\nthen stop"',
      "--",
      "Go",
    ]);
    // An empty system prompt is still given; an empty model is none.
    expect(codexArgs({ prompt: "Go", model: "", systemPrompt: "" })).toEqual([
      ...BASE,
      "-c",
      'developer_instructions=""',
      "--",
      "Go",
    ]);
  });

  it("points Codex at the simulator as a custom provider that leaves retries to skillgym", () => {
    const provider =
      'name="skillgym-sim",base_url="http://127.0.0.1:9/v1",wire_api="responses",env_key="SKILLGYM_SIM_KEY",request_max_retries=0,stream_max_retries=0';
    expect(codexArgs({ prompt: "Go", simulatorUrl: "http://127.0.0.1:9/" })).toEqual([
      ...BASE,
      "-c",
      "model_provider=skillgym-sim",
      "-c",
      `model_providers.skillgym-sim={${provider}}`,
      "--",
      "Go",
    ]);
  });

  it("sends the simulator's requests through a run's own base URL when one is given", () => {
    const args = codexArgs({
      prompt: "Go",
      simulatorUrl: "http://127.0.0.1:9",
      apiBaseUrl: "http://127.0.0.1:8/v1",
    });
    expect(args).toContain(
      'model_providers.skillgym-sim={name="skillgym-sim",base_url="http://127.0.0.1:8/v1",wire_api="responses",env_key="SKILLGYM_SIM_KEY",request_max_retries=0,stream_max_retries=0}',
    );
    expect(args.some((a) => a.startsWith("openai_base_url="))).toBe(false);
  });

  it("without the simulator, a run's base URL replaces OpenAI's", () => {
    expect(codexArgs({ prompt: "Go", apiBaseUrl: "http://127.0.0.1:8/v1" })).toEqual([
      ...BASE,
      "-c",
      'openai_base_url="http://127.0.0.1:8/v1"',
      "--",
      "Go",
    ]);
  });
});

describe("sandboxFor and simulatorApiUrl", () => {
  it("gives judges a read-only sandbox and everything else a writable one", () => {
    expect(sandboxFor("read-only")).toBe("read-only");
    expect(sandboxFor("eval")).toBe("workspace-write");
    expect(sandboxFor(undefined)).toBe("workspace-write");
  });

  it("adds /v1 to the simulator's URL, with or without its trailing slash", () => {
    expect(simulatorApiUrl("http://127.0.0.1:9")).toBe("http://127.0.0.1:9/v1");
    expect(simulatorApiUrl("http://127.0.0.1:9/")).toBe("http://127.0.0.1:9/v1");
  });
});
