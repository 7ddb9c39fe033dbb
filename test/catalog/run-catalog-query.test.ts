import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Agent, AgentRunRequest } from "../../src/agents/agent.js";
import type { TokenUsage } from "../../src/agents/events.js";
import { costOf } from "../../src/agents/pricing.js";
import type { CatalogMember } from "../../src/catalog/discover.js";
import { planCatalogRuns } from "../../src/catalog/plan.js";
import { executeCatalogRun } from "../../src/catalog/run-catalog-query.js";
import { createRedactor } from "../../src/redact.js";
import { readJson, skillMd, tempDir, writeTree } from "../e2e/helpers.js";
import { finishedProcess } from "../tune/fake-agent.js";

// One catalog run on an agent in this process: unsimulated, sandboxed, it loads the first skill it was given and
// reports its tokens but no price, as Codex and Gemini CLI do.
let dir: string;
let cleanup: () => Promise<void>;
let members: CatalogMember[];
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "lib/alpha/SKILL.md": skillMd("alpha", "Draws charts.", "Draw."),
    "lib/alpha/references/palette.md": "Colours.\n",
    "lib/beta/SKILL.md": skillMd("beta", "Summarises CSV files.", "Summarise."),
  });
  members = [
    {
      name: "alpha",
      dir: join(dir, "lib", "alpha"),
      description: "Draws charts.",
      queries: [{ query: "plot it", should_trigger: true }],
    },
    { name: "beta", dir: join(dir, "lib", "beta"), description: "Summarises CSV files.", queries: [] },
  ];
});
afterAll(() => cleanup());

const usage: TokenUsage = {
  inputTokens: 1_000_000,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
};

function tokenAgent(loads: string) {
  const requests: AgentRunRequest[] = [];
  const agent: Agent = {
    name: "claude-code",
    skillsFolder: ".claude/skills",
    binary: "in-process",
    simulated: false,
    sandboxed: true,
    redactor: createRedactor([]),
    async run(request) {
      requests.push(request);
      return {
        outcome: "success",
        events: [
          { kind: "usage", phase: "start", usage },
          { kind: "skill_load", skill: loads, via: "tool" },
        ],
        process: finishedProcess(),
        sandbox: { refusedHosts: ["telemetry.example.com"] },
      };
    },
  };
  return { agent, requests };
}

describe("executeCatalogRun", () => {
  it("prices the tokens at the model asked for, records the hosts the sandbox refused, and lists the skill's files", async () => {
    const catalogDir = join(dir, "catalog-1");
    const [spec] = planCatalogRuns(members, 1, catalogDir);
    const { agent, requests } = tokenAgent(spec!.installNames.alpha!);
    const run = await executeCatalogRun(spec!, {
      agent,
      members,
      // No file list read beforehand: the run reads the skill's own.
      bundledFiles: new Map(),
      catalogDir,
      model: "claude-sonnet-4-5",
      timeoutMs: 10_000,
      tempRoot: dir,
      retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
    });
    expect(requests.map((r) => r.model)).toEqual(["claude-sonnet-4-5"]);
    const price = costOf("claude-sonnet-4-5", usage);
    expect(price).toBeGreaterThan(0);
    expect(run).toMatchObject({ fired: "alpha", outcome: "success", cost_usd: price });
    expect(await readJson(join(spec!.runDir, "activation.json"))).toMatchObject({
      skill: "alpha",
      skill_fired: true,
      bundled_files: ["SKILL.md", "references/palette.md"],
      sandbox_refused: { hosts: ["telemetry.example.com"] },
    });
  });
});
