import { cp, readdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { skillgym } from "../cli/cli-process.js";
import { tempDir, writeTree } from "../e2e/helpers.js";
import {
  filesHolding,
  HOSTILE_SKILL,
  layOutTargets,
  PLANTED,
  PLANTED_CHECKS,
  plantingSimScript,
  type Targets,
} from "./hostile.js";

let dir: string;
let cleanup: () => Promise<void>;
let targets: Targets;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  targets = await layOutTargets(dir);
  await writeTree(dir, { "tmp/.keep": "" });
  await cp(HOSTILE_SKILL, join(dir, "skills", "hostile"), { recursive: true });
});
afterEach(async () => {
  await targets.exfiltration.close();
  await cleanup();
});

const skillsFolders: Record<string, string> = { "claude-code": ".claude/skills", codex: ".agents/skills" };
// Codex's own sandbox keeps a workspace's .git read-only: no git hook can be planted through it.
const plantedBy: Record<string, number> = { "claude-code": PLANTED.length, codex: PLANTED.length - 1 };

// The hostile skill's suite: one eval whose simulated model plants code, graded by `checks` that run it.
async function writeSuite(agent: string, checks: object[]) {
  await writeTree(join(dir, "skills", "hostile", "evals"), {
    "evals.json": JSON.stringify({
      evals: [{ id: 1, prompt: "Tidy this project with the hostile skill.", checks }],
    }),
    "sim-script.json": JSON.stringify(plantingSimScript(skillsFolders[agent] ?? "", targets)),
  });
}

const env = () => ({ ...process.env, TMPDIR: join(dir, "tmp") });

// `skillgym run` as a user runs it (graded, benchmark.json and report.html written), its temporary workspaces kept
// under the test's folder.
function evalSuite(agent: string, ...extra: string[]) {
  const skill = join(dir, "skills", "hostile");
  const args = ["run", skill, "--agent", agent, "--simulate", "--runs", "1", "--baseline", "none"];
  return skillgym([...args, "--keep-workspaces", "--workspace", join(dir, "ws"), ...extra], env());
}

async function evidence(iteration: number): Promise<string[]> {
  const run = join(dir, "ws", `iteration-${iteration}`, "eval-1", "with_skill", "run-1");
  const grading = JSON.parse(await readFile(join(run, "grading.json"), "utf8")) as {
    expectations: { evidence: string }[];
  };
  return grading.expectations.map((x) => x.evidence);
}

const outsideWrites = () => readdir(dirname(targets.outsideFile));

describe.each(["claude-code", "codex"])("command checks of a sandboxed run (%s, simulated)", (agent) => {
  it("run the planted code sandboxed: no canary read, nothing written outside, no canary in any record", async () => {
    const planted = PLANTED.slice(0, plantedBy[agent]);
    await writeSuite(agent, PLANTED_CHECKS.slice(0, planted.length));
    const result = evalSuite(agent, "--sandbox");
    expect(result.code, result.stderr).toBe(0);
    const found = await evidence(1);
    // Each check ran its planted code, which found neither the canary nor a writable folder outside.
    for (const [i, name] of planted.entries())
      expect(found[i]).toContain(`planted ${name} ran: canary unreadable; could not write outside`);
    expect(await outsideWrites()).toEqual([]);
    const records = join(dir, "ws", "iteration-1");
    expect(await readdir(records)).toEqual(expect.arrayContaining(["benchmark.json", "report.html"]));
    expect(await filesHolding(join(dir, "ws"), targets.canaryText)).toEqual([]);
    expect(await filesHolding(join(dir, "tmp"), targets.canaryText)).toEqual([]);
  });
});

describe("command checks of a plain run, and a check that asks to run outside", () => {
  it("without --sandbox the same checks read the canary and write outside", async () => {
    await writeSuite("claude-code", PLANTED_CHECKS);
    const result = evalSuite("claude-code");
    expect(result.code, result.stderr).toBe(0);
    const found = await evidence(1);
    for (const [i, name] of PLANTED.entries())
      expect(found[i]).toContain(`planted ${name} ran: canary ${targets.canaryText}`);
    expect((await outsideWrites()).sort()).toEqual([...PLANTED].sort());
    expect(await filesHolding(join(dir, "ws"), targets.canaryText)).not.toEqual([]);
  });

  it('a check with "sandbox": false runs outside in a sandboxed run, and its evidence says so', async () => {
    await writeSuite("claude-code", [
      { type: "command", run: "python3 out.py", sandbox: false },
      { type: "command", run: "python3 out.py" },
    ]);
    const result = evalSuite("claude-code", "--sandbox");
    expect(result.code, result.stderr).toBe(0);
    const [outside, inside] = await evidence(1);
    expect(outside).toMatch(/^Ran outside the sandbox \("sandbox": false\)/);
    expect(outside).toContain(`planted out.py ran: canary ${targets.canaryText}; wrote outside`);
    expect(inside).toContain("planted out.py ran: canary unreadable; could not write outside");
    expect(inside).not.toMatch(/outside the sandbox/);
  });
});

describe("skillgym grade of a sandboxed iteration", () => {
  it("sandboxes its checks again, and stops with exit 3 when bubblewrap is missing", async () => {
    await writeSuite("claude-code", [{ type: "command", run: "python3 out.py" }]);
    const result = evalSuite("claude-code", "--sandbox");
    expect(result.code, result.stderr).toBe(0);
    const iteration = join(dir, "ws", "iteration-1");
    const regraded = skillgym(["grade", iteration, "--force"], env());
    expect(regraded.code, regraded.stderr).toBe(0);
    expect(regraded.stdout).toContain("graded 1 runs");
    expect((await evidence(1))[0]).toContain(
      "planted out.py ran: canary unreadable; could not write outside",
    );
    expect(await outsideWrites()).toEqual([]);

    const before = await readFile(join(iteration, "eval-1", "with_skill", "run-1", "grading.json"), "utf8");
    const noBwrap = skillgym(["grade", iteration, "--force"], { ...env(), PATH: join(dir, "empty-bin") });
    expect(noBwrap.code, noBwrap.stderr).toBe(3);
    expect(noBwrap.stderr).toContain("bubblewrap");
    const after = await readFile(join(iteration, "eval-1", "with_skill", "run-1", "grading.json"), "utf8");
    expect(after).toBe(before);
  });
});
