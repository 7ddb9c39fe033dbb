import { access, chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SkillgymError } from "../../src/errors.js";
import { createAgentJudge, isAcpJudge, isAgentJudge } from "../../src/judge/agent-judge.js";
import { failure, judgeError } from "./failures.js";
import { type ClaudeScript, initLine, resultLine, scriptedClaude } from "./scripted-claude.js";

// The scripted ACP agent started with --judge: it tries two writes in its folder, then passes every expectation.
const ACP_DOUBLE = join(import.meta.dirname, "..", "acp-double", "agent.mjs");
const ACP_JUDGE = `acp:node ${ACP_DOUBLE} --judge` as const;
// Linux caps one argument at 128 KiB: a judge prompt and its system prompt may hold 120,000 characters together.
const MAX_ARGUMENT_CHARS = process.platform === "win32" ? 30_000 : 120_000;

const request = { system: "You grade runs.", prompt: "Grade it." };

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-agent-judge-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

// Claude Code with an API key of its own (no simulator), a home of the test's that holds no login.
const env = () => ({ ANTHROPIC_API_KEY: "sk-judge-key", HOME: join(dir, "user-home") });

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

async function claudeJudge(script: ClaudeScript, options: Parameters<typeof createAgentJudge>[1] = {}) {
  const claude = await scriptedClaude(dir, script);
  const judge = await createAgentJudge("claude-code", { binary: claude.binary, env: env(), ...options });
  return { judge, calls: claude.calls };
}

const answered = { lines: [initLine("claude-opus-4-5"), resultLine("verdict", { costUsd: 0.5 })] };

describe("isAgentJudge", () => {
  it("knows the five agents and any ACP command, and no API backend", () => {
    for (const name of ["claude-code", "codex", "gemini", "opencode", "copilot", "acp:goose acp"])
      expect(isAgentJudge(name), name).toBe(true);
    for (const name of ["anthropic", "openai", "sim", "qwen-code", "acp"])
      expect(isAgentJudge(name), name).toBe(false);
    expect([isAcpJudge("acp:goose acp"), isAcpJudge("codex")]).toEqual([true, false]);
  });
});

describe("an agent judge (a scripted claude binary)", () => {
  it("answers with the run's text, model, tokens (cache ones counted as input) and cost, in a home it removes", async () => {
    const { judge, calls } = await claudeJudge(
      {
        lines: [
          initLine("claude-opus-4-5"),
          resultLine("verdict", {
            costUsd: 0.5,
            usage: {
              input_tokens: 100,
              cache_creation_input_tokens: 20,
              cache_read_input_tokens: 7,
              output_tokens: 9,
            },
          }),
        ],
      },
      { passEnv: ["SUITE_TOKEN"], env: { ...env(), SUITE_TOKEN: "suite-value" } },
    );
    expect(judge).toMatchObject({
      backend: "claude-code",
      model: "claude-code-default",
      simulated: false,
      readsWorkspace: true,
    });
    expect("sandboxed" in judge).toBe(false);
    const response = await judge.complete(request);
    expect(response).toEqual({
      text: "verdict",
      model: "claude-opus-4-5",
      inputTokens: 127,
      outputTokens: 9,
      costUsd: 0.5,
      durationMs: expect.any(Number),
    });
    const [call] = await calls();
    expect(call!.argv).not.toContain("--model");
    expect(call!.argv).toEqual(
      expect.arrayContaining(["-p", "Grade it.", "--append-system-prompt", "You grade runs."]),
    );
    expect(call!.env.ANTHROPIC_API_KEY).toBe("sk-judge-key");
    expect(call!.env.SUITE_TOKEN).toBe("suite-value");
    // No run folder given: the judge works in its fresh home, gone once it has answered.
    expect(call!.cwd).toBe(call!.env.HOME);
    expect(await exists(call!.env.HOME!)).toBe(false);
  });

  it("runs the model it is given, in the run's folder, and is named by it", async () => {
    const workspace = join(dir, "run");
    await mkdir(workspace);
    const { judge, calls } = await claudeJudge(
      { lines: [initLine(""), resultLine("verdict", { costUsd: 0.5 })] },
      { model: "claude-opus-4-1" },
    );
    expect(judge.model).toBe("claude-opus-4-1");
    const response = await judge.complete({ ...request, workspaceDir: workspace });
    // The run's init named no model: the one asked for answered.
    expect(response.model).toBe("claude-opus-4-1");
    const [call] = await calls();
    expect(call!.argv).toEqual(expect.arrayContaining(["--model", "claude-opus-4-1"]));
    expect(call!.cwd).toBe(workspace);
  });

  it("names its agent as the model when neither the run nor the caller names one", async () => {
    const { judge } = await claudeJudge({ lines: [initLine(""), resultLine("verdict", { costUsd: 0.5 })] });
    expect((await judge.complete(request)).model).toBe("claude-code");
  });

  it("counts a cost Claude Code did not report as 0, and says so", async () => {
    const { judge } = await claudeJudge({ lines: [initLine("claude-opus-4-5"), resultLine("verdict")] });
    const response = await judge.complete(request);
    expect([response.costUsd, response.costNote]).toEqual([
      0,
      "Claude Code reported no total_cost_usd: the cost is counted as 0",
    ]);
  });

  it("costs nothing and notes nothing under the simulator, which names the model", async () => {
    const { judge, calls } = await claudeJudge(
      { lines: [initLine(""), resultLine("verdict", { costUsd: 0.5 })] },
      { simulatorUrl: "http://127.0.0.1:9" },
    );
    expect([judge.model, judge.simulated]).toEqual(["skillgym-sim", true]);
    const response = await judge.complete(request);
    expect(response).toMatchObject({ model: "skillgym-sim", costUsd: 0 });
    expect("costNote" in response).toBe(false);
    const [call] = await calls();
    expect(call!.argv).toEqual(expect.arrayContaining(["--model", "skillgym-sim"]));
    const { judge: unpriced } = await claudeJudge(
      { lines: [initLine(""), resultLine("verdict")] },
      { simulatorUrl: "http://127.0.0.1:9" },
    );
    expect("costNote" in (await unpriced.complete(request))).toBe(false);
  });

  it("still answers when its agent removed its own home", async () => {
    const { judge, calls } = await claudeJudge({ ...answered, removeHome: true });
    expect((await judge.complete(request)).text).toBe("verdict");
    const [call] = await calls();
    expect(await exists(call!.env.HOME!)).toBe(false);
  });

  it("fails, not to be retried, when the agent's login is refused", async () => {
    const { judge } = await claudeJudge({
      lines: [
        initLine("claude-opus-4-5"),
        resultLine("Invalid API key · Please run /login", { isError: true, apiErrorStatus: 401 }),
      ],
      exitCode: 1,
    });
    const error = await judgeError(judge.complete(request));
    expect([error.message, error.retryable]).toEqual([
      "Claude Code (the judge) could not authenticate: Invalid API key · Please run /login",
      false,
    ]);
  });

  it("fails, to be retried, when the agent's model was busy; not when it refused the request", async () => {
    const { judge: limited } = await claudeJudge({
      lines: [resultLine("API Error: Request rejected (429)", { isError: true, apiErrorStatus: 429 })],
      exitCode: 1,
    });
    const busy = await judgeError(limited.complete(request));
    expect([busy.message, busy.retryable]).toEqual([
      "Claude Code (the judge) failed: API Error: Request rejected (429)",
      true,
    ]);
    const { judge: refusing } = await claudeJudge({
      lines: [resultLine("API Error: 400 bad request", { isError: true, apiErrorStatus: 400 })],
      exitCode: 1,
    });
    const bad = await judgeError(refusing.complete(request));
    expect([bad.message, bad.retryable]).toEqual([
      "Claude Code (the judge) failed: API Error: 400 bad request",
      false,
    ]);
  });

  it("is cancelled when its signal is aborted", async () => {
    const { judge } = await claudeJudge(answered);
    const controller = new AbortController();
    controller.abort();
    const error = await failure(judge.complete({ ...request, signal: controller.signal }));
    expect(error).toBeInstanceOf(SkillgymError);
    expect([(error as SkillgymError).code, error.message]).toEqual(["CANCELLED", "the judge was cancelled"]);
  });

  it("gives up on an agent that does not end within its timeout", async () => {
    const { judge } = await claudeJudge({ hang: true }, { timeoutMs: 1 });
    const error = await judgeError(judge.complete(request));
    expect(error.message).toMatch(/^Claude Code \(the judge\) failed: timed out after \d+ s$/);
    expect(error.retryable).toBe(false);
  });

  it("takes a prompt and system prompt of up to a command line's argument, together, and no more", async () => {
    const { judge, calls } = await claudeJudge(answered);
    const half = MAX_ARGUMENT_CHARS / 2;
    const fits = await judge.complete({ system: "s".repeat(half), prompt: "p".repeat(half) });
    expect(fits.text).toBe("verdict");
    const error = await judgeError(
      judge.complete({ system: "s".repeat(half), prompt: "p".repeat(half + 1) }),
    );
    expect(error.message).toBe(
      `the judge prompt has ${MAX_ARGUMENT_CHARS + 1} characters, more than a command line takes ` +
        `(${MAX_ARGUMENT_CHARS}); let Claude Code read the run's files from its working folder instead of inlining them`,
    );
    expect(error.retryable).toBe(false);
    expect(await calls()).toHaveLength(1);
  });

  it.skipIf(process.platform !== "linux")("is sandboxed when asked, with bubblewrap from PATH", async () => {
    const bwrapDir = join(dir, "bin");
    await mkdir(bwrapDir);
    await writeFile(join(bwrapDir, "bwrap"), "#!/bin/sh\n");
    await chmod(join(bwrapDir, "bwrap"), 0o755);
    const { judge } = await claudeJudge(answered, {
      simulatorUrl: "http://127.0.0.1:9",
      env: { PATH: bwrapDir },
      sandbox: true,
    });
    expect(judge.sandboxed).toBe(true);
  });
});

describe("an ACP agent as the judge (the scripted ACP agent)", () => {
  it("records the writes it was refused, and notes that no price is known for its model", async () => {
    const judge = await createAgentJudge(ACP_JUDGE);
    expect(judge.model).toBe("acp-node-default");
    const workspace = join(dir, "run");
    await mkdir(workspace);
    const response = await judge.complete({
      system: "You grade runs.",
      prompt: 'Grade it.\n\n<expectations>\n["It greets"]\n</expectations>',
      workspaceDir: workspace,
    });
    expect(response.refused).toEqual([
      `write ${join(workspace, "judged.txt")}: a read-only run may not write`,
      `permission Write ${join(workspace, "judged.txt")}: a read-only run may not use a edit tool (Write ${join(workspace, "judged.txt")})`,
    ]);
    expect([response.costUsd, response.costNote]).toEqual([
      0,
      `no price is known for ${ACP_JUDGE}'s model ${response.model}: its cost is counted as 0`,
    ]);
  });

  it("is named by its command in a prompt too long for it", async () => {
    const judge = await createAgentJudge(ACP_JUDGE);
    const error = await judgeError(judge.complete({ system: "s", prompt: "p".repeat(MAX_ARGUMENT_CHARS) }));
    expect(error.message).toContain(
      `let the ACP agent node ${ACP_DOUBLE} --judge read the run's files from its working folder`,
    );
  });

  it("is refused before any run a model it offers no choice of", async () => {
    const error = await failure(createAgentJudge(ACP_JUDGE, { model: "big-model" }));
    expect(error).toBeInstanceOf(SkillgymError);
    expect((error as SkillgymError).code).toBe("USAGE");
    expect(error.message).toContain("offers no model selection over ACP");
  });
});
