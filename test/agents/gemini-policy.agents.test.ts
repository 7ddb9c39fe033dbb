import { access, mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AgentRunRequest } from "../../src/agents/agent.js";
import { createAgent } from "../../src/agents/registry.js";
import { SimScript } from "../../src/contracts/sim-script.js";
import { type SimServer, startSim } from "../../src/sim/index.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
let sim: SimServer | undefined;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(async () => {
  await sim?.close();
  sim = undefined;
  await cleanup();
});

async function run(script: unknown, tools: AgentRunRequest["tools"]) {
  sim = await startSim({ script: SimScript.parse(script) });
  const agent = await createAgent("gemini", { simulatorUrl: sim.url });
  const work = join(dir, "work");
  await writeTree(work, {
    ".gemini/skills/haiku/SKILL.md": skillMd("haiku", "Writes haiku poems.", "# haiku\n"),
  });
  await mkdir(join(dir, "home"), { recursive: true });
  const result = await agent.run({
    prompt: "Write a haiku",
    cwd: work,
    home: join(dir, "home"),
    timeoutMs: 60_000,
    tools,
  });
  return { result, work };
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe("Gemini CLI's tool policy per run", () => {
  it("lets an eval run activate a skill, run a shell command and write a file", async () => {
    const { result, work } = await run(
      {
        rules: [
          {
            skill: "haiku",
            steps: [
              { bash: "cd . && echo shell | cat > shell.txt" },
              { write: { path: "poem.txt", content: "moon\n" } },
            ],
          },
        ],
      },
      "eval",
    );
    expect(result.outcome).toBe("success");
    expect(result.events.filter((e) => e.kind === "skill_load")).toEqual([
      expect.objectContaining({ skill: "haiku", via: "tool" }),
    ]);
    expect(await readFile(join(work, "shell.txt"), "utf8")).toBe("shell\n");
    expect(await readFile(join(work, "poem.txt"), "utf8")).toBe("moon\n");
  });

  it("lets a read-only run activate a skill and read, but not write or run commands", async () => {
    const { result, work } = await run(
      {
        rules: [
          {
            skill: "haiku",
            steps: [
              { read: ".gemini/skills/haiku/SKILL.md" },
              { bash: "echo shell > shell.txt" },
              { write: { path: "poem.txt", content: "moon\n" } },
            ],
          },
        ],
      },
      "read-only",
    );
    expect(result.outcome).toBe("success");
    expect(
      result.events.filter((e) => e.kind === "skill_load").map((e) => e.kind === "skill_load" && e.via),
    ).toEqual(["tool", "read"]);
    const failed = result.events.filter((e) => e.kind === "tool_result" && e.isError);
    expect(failed).toHaveLength(2);
    expect(await exists(join(work, "shell.txt"))).toBe(false);
    expect(await exists(join(work, "poem.txt"))).toBe(false);
  });
});
