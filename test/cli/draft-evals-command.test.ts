import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startSim } from "../../src/sim/index.js";
import { tempDir } from "../e2e/helpers.js";
import { cli, openServers } from "./command-fixture.js";

// skillgym draft-evals in this process, drafting with the simulator (--simulate) into a fresh skill folder.
let dir: string;
let cleanup: () => Promise<void>;
let skill: string;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await mkdir(join(dir, ".git"));
  skill = join(dir, "csv-tables");
  await mkdir(skill);
  await writeFile(
    join(skill, "SKILL.md"),
    "---\nname: csv-tables\ndescription: Converts CSV spreadsheets into Markdown tables. Use when the user asks to tabulate CSV data.\n---\n\n# CSV tables\n",
  );
});
afterEach(() => cleanup());

async function draft(...flags: string[]) {
  const servers = openServers();
  const result = await cli(["draft-evals", skill, "--simulate", ...flags]);
  // The simulator the command started is closed when it returns (its handle goes a moment after).
  await expect.poll(openServers, { timeout: 2000, interval: 50 }).toBe(servers);
  return result;
}

describe("skillgym draft-evals", () => {
  it("prints what it wrote: the queries and near misses, the evals, the cost and what to review", async () => {
    const result = await draft("--triggers", "6", "--count-evals", "2");
    const evalsDir = join(skill, "evals");
    expect(result).toEqual({
      code: 0,
      stdout:
        "SIMULATED drafts (skillgym sim), not a model's\n" +
        `wrote ${join(evalsDir, "triggers.json")}: 6 trigger queries (3 should trigger, 3 near misses)\n` +
        `wrote ${join(evalsDir, "evals.json")}: 2 evals (draft-1, draft-2)\n` +
        "cost $0.0000\n" +
        `review the queries: skillgym view ${skill} --triggers\n`,
      stderr: "",
    });
  });

  it("says when the first answer was refused, and notes a sim-script.json left from the earlier suite", async () => {
    const evalsDir = join(skill, "evals");
    await mkdir(evalsDir);
    const script = join(evalsDir, "sim-script.json");
    await writeFile(script, JSON.stringify({ judge: { drafter: "invalid-once" } }));
    const result = await draft("--triggers", "4", "--count-evals", "1");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `(draft-1)\nthe first answer was refused; the second was used\ncost $0.0000\n`,
    );
    expect(
      result.stdout.endsWith(
        `--triggers\nnote: ${script} scripts the earlier suite for --simulate; adapt its rules to the new evals (skillgym sim --help)\n`,
      ),
    ).toBe(true);
  });

  it("takes the old --evals <n> over --count-evals, saying it is deprecated, and replaces drafts only with --force", async () => {
    const old = await draft("--triggers", "2", "--evals", "1");
    expect(old.code).toBe(0);
    expect(old.stdout).toContain(": 1 evals (draft-1)\n");
    expect(old.stderr).toBe(
      "skillgym: draft-evals --evals <n> is deprecated; use --count-evals <n> (--evals is a path elsewhere)\n",
    );
    const blocked = await draft("--triggers", "2");
    expect(blocked.code).toBe(2);
    const forced = await draft("--triggers", "2", "--force");
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain(": 3 evals (draft-1, draft-2, draft-3)\n");
    expect(forced.stderr).toBe("");
  });

  it("says nothing of a simulation when a model API drafts", async () => {
    const sim = await startSim();
    try {
      const result = await cli(
        ["draft-evals", skill, "--triggers", "2", "--count-evals", "1", "--judge", "openai"].concat([
          "--judge-model",
          "gpt-x",
          "--judge-base-url",
          `${sim.url}/v1`,
        ]),
      );
      expect(result.code, result.stderr).toBe(0);
      expect(
        result.stdout.startsWith(`wrote ${join(skill, "evals", "triggers.json")}: 2 trigger queries`),
      ).toBe(true);
    } finally {
      await sim.close();
    }
  });

  it("describes its argument and names its judge the drafter in its help", async () => {
    const help = await cli(["help", "draft-evals"]);
    expect(help.code).toBe(0);
    // Commander wraps a long description onto indented lines: compare the words.
    const words = help.stdout.replace(/\s+/g, " ");
    expect(words).toContain(" skill the skill folder (or its SKILL.md) ");
    expect(words).toContain(" --judge <backend> who drafts: claude-code, ");
    expect(words).toContain(" --judge-model <model> the model (required for openai) ");
    expect(words).toContain(" --judge-base-url <url> the API's base URL (anthropic, openai) ");
  });
});
