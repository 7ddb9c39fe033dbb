import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Activation } from "../../src/contracts/activation.js";
import { Benchmark } from "../../src/contracts/benchmark.js";
import { skillgym } from "../cli/cli-process.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

const SKILL = "pdf-forms";

// Eval 1 reads the forms reference and lists the fill script; its baseline reads the user's own SKILL.md (a leak).
// Eval 2 reads the tables reference; its baseline reads nothing of the skill.
async function writeSkill(skillsFolder: string): Promise<string> {
  const skillDir = join(dir, SKILL);
  const staged = `${skillsFolder}/${SKILL}`;
  const script = {
    rules: [
      {
        match: "form\\.txt",
        skill: SKILL,
        steps: [
          { read: `${staged}/references/forms.md` },
          { bash: `ls ${staged}/scripts/fill.py` },
          { write: { path: "out.txt", content: "filled" } },
        ],
        without_skill: [{ read: `${skillDir}/SKILL.md` }, { write: { path: "out.txt", content: "x" } }],
      },
      {
        match: "table\\.txt",
        skill: SKILL,
        steps: [{ read: `${staged}/references/tables.md` }, { write: { path: "out.txt", content: "t" } }],
        without_skill: [{ write: { path: "out.txt", content: "x" } }],
      },
    ],
  };
  const check = [{ type: "file_exists", path: "out.txt" }];
  await writeTree(skillDir, {
    "SKILL.md": skillMd(
      SKILL,
      "Fill PDF forms and tables. Use when the user asks to fill a form.",
      "See references/.",
    ),
    "references/forms.md": "# Forms\n",
    "references/tables.md": "# Tables\n",
    "scripts/fill.py": "print('fill')\n",
    "assets/logo.txt": "logo\n",
    "evals/evals.json": JSON.stringify({
      skill_name: SKILL,
      evals: [
        { id: 1, prompt: "Fill the form in form.txt and write out.txt", checks: check },
        { id: 2, prompt: "Fill the table in table.txt and write out.txt", checks: check },
      ],
    }),
    "evals/sim-script.json": JSON.stringify(script),
  });
  return skillDir;
}

async function activationOf(iteration: string, evalId: number, configuration: string, run: number) {
  const path = join(iteration, `eval-${evalId}`, configuration, `run-${run}`, "activation.json");
  return Activation.parse(JSON.parse(await readFile(path, "utf8")));
}

describe.each([
  ["claude-code", ".claude/skills"],
  ["codex", ".agents/skills"],
])("activation telemetry and contamination with %s against the sim", (agent, skillsFolder) => {
  it("records what fired and which bundled files were opened; a baseline that read SKILL.md is left out of the delta", async () => {
    const skillDir = await writeSkill(skillsFolder);
    const workspace = join(dir, "ws");
    const ran = skillgym([
      "eval",
      skillDir,
      "--agent",
      agent,
      "--simulate",
      "--runs",
      "2",
      "--workspace",
      workspace,
    ]);
    expect(ran.code, ran.stderr).toBe(0);
    const iteration = join(workspace, "iteration-1");

    const withSkill = await activationOf(iteration, 1, "with_skill", 1);
    expect(withSkill.skill_fired).toBe(true);
    expect(withSkill.fired[0]).toMatchObject({ skill: SKILL, turn: 1 });
    // Codex loads a skill by reading its SKILL.md with cat, and counts `ls` as neither read nor shell.
    expect(withSkill.files_opened.map((f) => [f.path, f.kind, f.how])).toEqual([
      ...(agent === "codex" ? [["SKILL.md", "skill_md", "read"]] : []),
      ["references/forms.md", "reference", "read"],
      ["scripts/fill.py", "script", agent === "codex" ? "other" : "shell"],
    ]);
    expect(withSkill.files_opened.at(-2)!.turn).toBeLessThan(withSkill.files_opened.at(-1)!.turn);
    expect(withSkill.contaminated).toBe(false);

    const leaked = await activationOf(iteration, 1, "without_skill", 2);
    expect(leaked.contaminated).toBe(true);
    expect(leaked.contamination.join(" ")).toContain("SKILL.md");
    expect(leaked.tools_instead?.length).toBeGreaterThan(0);
    const clean = await activationOf(iteration, 2, "without_skill", 1);
    expect(clean.contaminated).toBe(false);
    expect(clean.skill_fired).toBe(false);
    const timing = JSON.parse(
      await readFile(join(iteration, "eval-1", "without_skill", "run-1", "timing.json"), "utf8"),
    );
    expect(timing.contaminated).toBe(true);

    expect(skillgym(["bench", iteration]).code).toBe(0);
    const benchmark = Benchmark.parse(JSON.parse(await readFile(join(iteration, "benchmark.json"), "utf8")));
    const baselineRuns = benchmark.runs.filter((r) => r.configuration === "without_skill");
    expect(baselineRuns.filter((r) => r.error?.startsWith("contaminated")).map((r) => r.eval_id)).toEqual([
      1, 1,
    ]);
    expect(benchmark.notes?.join("\n")).toContain(
      "without_skill: 2 runs are contaminated: they saw the skill they should not have (see their activation.json) and are left out of the pass rates and the delta",
    );
    expect(benchmark.statistics?.per_eval?.find((e) => e.eval_id === 1)?.delta_pass_rate).toBeNull();
    const coverage = benchmark.disclosure?.find((d) => d.eval_id === 1 && d.configuration === "with_skill");
    expect(coverage).toMatchObject({ runs: 2, fired: 2 });
    expect(coverage?.files).toContainEqual({ path: "references/forms.md", kind: "reference", opened_in: 2 });
    expect(coverage?.never_opened).toEqual([
      ...(agent === "codex" ? [] : ["SKILL.md"]),
      "assets/logo.txt",
      "references/tables.md",
    ]);
    const tables = benchmark.disclosure?.find((d) => d.eval_id === 2 && d.configuration === "with_skill");
    expect(tables?.files).toContainEqual({ path: "references/tables.md", kind: "reference", opened_in: 2 });
  }, 240_000);
});
