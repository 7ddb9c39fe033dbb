import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { captureIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { SimScript } from "../../src/contracts/sim-script.js";
import { draftEvals, scaffoldSkill } from "../../src/create/index.js";
import { SkillgymError } from "../../src/errors.js";
import { createJudge } from "../../src/judge/create.js";
import type { Judge } from "../../src/judge/judge.js";
import { startSim } from "../../src/sim/index.js";
import { loadSuite } from "../../src/suite/index.js";

let root: string;
let skillDir: string;
const description =
  "Converts CSV spreadsheets into Markdown tables. Use when the user asks to tabulate CSV data.";

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "skillgym-draft-"));
  await mkdir(join(root, ".git"));
  skillDir = join(root, "csv-tables");
  await mkdir(skillDir);
  await writeFile(
    join(skillDir, "SKILL.md"),
    `---\nname: csv-tables\ndescription: ${description}\n---\n\n# CSV tables\n\nRead the CSV, write a Markdown table.\n`,
  );
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function withSimJudge<T>(drafter: string | undefined, work: (judge: Judge) => Promise<T>) {
  const script = SimScript.parse(drafter ? { judge: { drafter } } : {});
  const sim = await startSim({ script });
  try {
    return { result: await work(await createJudge({ backend: "sim", simulatorUrl: sim.url })), log: sim.log };
  } finally {
    await sim.close();
  }
}

describe("draftEvals through the simulator", () => {
  it("writes an evals.json and triggers.json that load as a suite, half near misses", async () => {
    const { result, log } = await withSimJudge(undefined, (judge) =>
      draftEvals({ skill: skillDir, judge, triggers: 10, evals: 2 }),
    );
    expect(log.filter((e) => e.action === "judge drafter")).toHaveLength(1);
    expect(result.attempts).toBe(1);
    expect(result.simulated).toBe(true);
    const suite = await loadSuite({ skillDir, skillName: "csv-tables", projectRoot: root });
    expect(suite.findings.filter((f) => f.severity === "error")).toEqual([]);
    expect(suite.suite?.triggers).toHaveLength(10);
    expect(suite.suite?.triggers.filter((t) => t.should_trigger)).toHaveLength(5);
    expect(suite.suite?.evals.map((e) => String(e.id))).toEqual(["draft-1", "draft-2"]);
    expect(result.evalIds).toEqual(["draft-1", "draft-2"]);
    const positives = suite.suite?.triggers.filter((t) => t.should_trigger) ?? [];
    for (const t of positives)
      expect(t.query).toMatch(/csv|spreadsheets|markdown|tables|converts|tabulate|data/);
  });

  it("retries once with the reason when the first answer is not JSON, then writes", async () => {
    const { result, log } = await withSimJudge("invalid-once", (judge) =>
      draftEvals({ skill: skillDir, judge }),
    );
    expect(result.attempts).toBe(2);
    expect(log.filter((e) => e.action === "judge drafter")).toHaveLength(2);
    expect(JSON.parse(await readFile(result.triggersFile, "utf8"))).toHaveLength(20);
  });

  for (const drafter of ["invalid", "bad-schema"]) {
    it(`reports an answer that stays ${drafter} after one retry and writes nothing`, async () => {
      const { result, log } = await withSimJudge(drafter, (judge) =>
        draftEvals({ skill: skillDir, judge }).then(
          () => undefined,
          (error: unknown) => error,
        ),
      );
      expect(result).toBeInstanceOf(SkillgymError);
      expect((result as Error).message).toContain("refused twice");
      if (drafter === "bad-schema") expect((result as Error).message).toContain("should_trigger");
      expect(log.filter((e) => e.action === "judge drafter")).toHaveLength(2);
      expect(await readdir(skillDir)).toEqual(["SKILL.md"]);
    });
  }
});

describe("skillgym draft-evals", () => {
  async function cli(...argv: string[]) {
    const io = captureIo();
    const code = await main(argv, io);
    return { code, out: io.stdout(), err: io.stderr() };
  }

  it("drafts with --simulate, prints a summary, then refuses to overwrite without --force", async () => {
    const first = await cli("draft-evals", skillDir, "--simulate", "--triggers", "8", "--evals", "1");
    expect(first.code).toBe(0);
    expect(first.out).toContain("SIMULATED");
    expect(first.out).toContain("8 trigger queries (4 should trigger, 4 near misses)");
    expect(first.out).toContain("1 evals (draft-1)");
    const validated = await cli("validate", skillDir);
    expect(validated.code).toBe(0);

    await writeFile(join(skillDir, "evals", "triggers.json"), "[]\n");
    const again = await cli("draft-evals", skillDir, "--simulate");
    expect(again.code).toBe(2);
    expect(again.err).toContain(join(skillDir, "evals", "evals.json"));
    expect(await readFile(join(skillDir, "evals", "triggers.json"), "utf8")).toBe("[]\n");

    const forced = await cli("draft-evals", skillDir, "--simulate", "--force");
    expect(forced.code).toBe(0);
    expect(JSON.parse(await readFile(join(skillDir, "evals", "triggers.json"), "utf8"))).toHaveLength(20);
  });

  it("exits 3 with the reason when the sim script makes the drafter answer non-JSON", async () => {
    const script = join(root, "sim-script.json");
    await writeFile(script, JSON.stringify({ judge: { drafter: "invalid" } }));
    const run = await cli("draft-evals", skillDir, "--simulate", "--sim-script", script);
    expect(run.code).toBe(3);
    expect(run.err).toContain("no JSON object");
    expect(run.err).toContain("nothing was written");
    expect(await readdir(skillDir)).toEqual(["SKILL.md"]);
  });

  it("scaffolds with init and then drafts over the examples with --force", async () => {
    const dir = join(root, "yaml-lint");
    await scaffoldSkill({
      dir,
      description: "Lints YAML files. Use when the user asks to check YAML syntax.",
    });
    const blocked = await cli("draft-evals", dir, "--simulate");
    expect(blocked.code).toBe(2);
    const forced = await cli("draft-evals", dir, "--simulate", "--force");
    expect(forced.code).toBe(0);
    expect((await cli("validate", dir)).code).toBe(0);
  });
});
