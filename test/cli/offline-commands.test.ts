import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatNames } from "../../src/contracts/registry.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";
import { cli } from "./command-fixture.js";

// The commands that start no agent, run in this process through the CLI's own `main`.

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "good/SKILL.md": skillMd(
      "good",
      "Writes release notes. Use when asked for release notes.",
      "Write them.",
    ),
    "good/evals/evals.json": JSON.stringify({
      skill_name: "good",
      evals: [
        {
          id: 1,
          prompt: "Write release notes for v2.",
          expected_output: "Notes.",
          expectations: ["lists v2"],
        },
      ],
    }),
    "bare/SKILL.md": skillMd("bare", "Does one thing. Use when asked for that thing.", "Do it."),
    "undescribed/SKILL.md": "---\nname: undescribed\n---\n\nDo it.\n",
    "suites/bare/evals.json": JSON.stringify({
      skill_name: "bare",
      evals: [{ id: 1, prompt: "Do the thing.", expected_output: "Done.", expectations: ["done"] }],
    }),
    "noskill/README.md": "not a skill\n",
  });
});
afterAll(() => cleanup());

describe("skillgym validate", () => {
  it("says a skill with its evals is valid, with no finding, exit 0", async () => {
    const good = join(dir, "good");
    expect(await cli(["validate", good])).toEqual({
      code: 0,
      stdout: `valid: ${good} (0 warnings)\n`,
      stderr: "",
    });
  });

  it("warns about a skill with no eval suite, naming where to add one, and counts one warning", async () => {
    const bare = join(dir, "bare");
    const result = await cli(["validate", bare]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      `warning: ${bare}: no eval suite found, so nothing shows whether the skill works\n` +
        `    fix: add ${bare}/evals/evals.json and triggers.json, or pass --evals PATH\n` +
        `valid: ${bare} (1 warning)\n`,
    );
  });

  it("lists errors before warnings and counts each, exit 2", async () => {
    const undescribed = join(dir, "undescribed");
    const result = await cli(["validate", undescribed]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe(
      `error: ${undescribed}/SKILL.md: the frontmatter has no \`description\`\n` +
        "    fix: add a `description:` that says what the skill does and when to use it\n" +
        `warning: ${undescribed}: no eval suite found, so nothing shows whether the skill works\n` +
        `    fix: add ${undescribed}/evals/evals.json and triggers.json, or pass --evals PATH\n` +
        `invalid: ${undescribed} (1 error, 1 warning)\n`,
    );
  });

  it("refuses a folder with no SKILL.md, and reports no eval warning for it", async () => {
    const noskill = join(dir, "noskill");
    const result = await cli(["validate", noskill]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe(
      `error: ${noskill}/SKILL.md: the folder has no SKILL.md\n` +
        "    fix: create SKILL.md with a frontmatter (`name`, `description`) and instructions\n" +
        `invalid: ${noskill} (1 error, 0 warnings)\n`,
    );
  });

  it("prints { valid, errors, warnings } with --json", async () => {
    const bare = await cli(["validate", join(dir, "bare"), "--json"]);
    expect(bare.code).toBe(0);
    const parsed = JSON.parse(bare.stdout);
    expect(parsed.valid).toBe(true);
    expect(parsed.errors).toEqual([]);
    expect(parsed.warnings.map((w: { code: string }) => w.code)).toEqual(["no-evals"]);
    expect(bare.stdout.endsWith("}\n")).toBe(true);
    expect(bare.stdout).toContain('\n  "valid": true,');
    const noskill = JSON.parse((await cli(["validate", join(dir, "noskill"), "--json"])).stdout);
    expect(noskill.valid).toBe(false);
    expect(noskill.errors).toHaveLength(1);
  });

  it("reads the suite named by --evals, and the skill's project from --project-root", async () => {
    const bare = join(dir, "bare");
    const withEvals = await cli([
      "validate",
      bare,
      "--evals",
      join(dir, "suites", "bare"),
      "--project-root",
      dir,
    ]);
    expect(withEvals.stdout).toBe(`valid: ${bare} (0 warnings)\n`);
    const missing = await cli(["validate", bare, "--evals", join(dir, "none")]);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toContain(join(dir, "none"));
    expect(missing.stdout).not.toContain("no eval suite found");
  });
});

describe("skillgym schema", () => {
  it("lists the formats, one a line", async () => {
    expect(await cli(["schema"])).toEqual({ code: 0, stdout: `${formatNames.join("\n")}\n`, stderr: "" });
  });

  it("prints a format's JSON Schema by its name, its file name or its underscored name", async () => {
    const byName = await cli(["schema", "trigger-run"]);
    expect(byName.code).toBe(0);
    expect(JSON.parse(byName.stdout).title).toBe("skillgym trigger-run");
    expect(byName.stdout.startsWith('{\n  "$schema"')).toBe(true);
    expect((await cli(["schema", "trigger_run.json"])).stdout).toBe(byName.stdout);
    expect(JSON.parse((await cli(["schema", "evals.json"])).stdout).title).toBe("skillgym evals");
  });

  it("refuses an unknown format, naming the formats there are", async () => {
    const result = await cli(["schema", "evals_json"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `skillgym: unknown format "evals_json"\n  fix: choose one of: ${formatNames.join(", ")}\n`,
    );
    // Only a trailing .json is taken for the file's extension.
    expect(await cli(["schema", "sim.json-script"])).toEqual({
      code: 2,
      stdout: "",
      stderr: `skillgym: unknown format "sim.json-script"\n  fix: choose one of: ${formatNames.join(", ")}\n`,
    });
  });
});

describe("skillgym init and package", () => {
  it("scaffolds a skill, lists its files and the next step; refuses to do it twice", async () => {
    const target = join(dir, "made", "my-skill");
    const made = await cli(["init", target, "--description", "Makes things. Use when asked to make things."]);
    expect(made.code).toBe(0);
    expect(made.stdout).toBe(
      `created skill "my-skill" in ${target}\n` +
        "  SKILL.md\n  scripts/.gitkeep\n  references/README.md\n  evals/evals.json\n  evals/triggers.json\n  evals/sim-script.json\n" +
        `next: edit SKILL.md, then \`skillgym draft-evals ${target} --force\` replaces the example evals with drafts\n`,
    );
    expect(await readFile(join(target, "SKILL.md"), "utf8")).toContain(
      'description: "Makes things. Use when asked to make things."',
    );
    const again = await cli(["init", target]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`${target}/SKILL.md already exists; init never overwrites`);
    const undescribed = await cli(["init", join(dir, "made", "x-skill"), "--name", "y-skill"]);
    expect(undescribed.code).toBe(2);
    expect(undescribed.stderr).toContain("y-skill");
  });

  it("packages a skill, naming what it left out", async () => {
    const out = join(dir, "packages");
    const result = await cli(["package", join(dir, "good"), "--out", out]);
    expect(result).toEqual({
      code: 0,
      stdout: `wrote ${join(out, "good.skill")} (1 files)\nleft out 1 entry:\n  evals/\n`,
      stderr: "",
    });
  });

  it("lists nothing left out when there was nothing to leave, and says entries for several", async () => {
    const out = join(dir, "packages");
    expect((await cli(["package", join(dir, "bare"), "--out", out])).stdout).toBe(
      `wrote ${join(out, "bare.skill")} (1 files)\n`,
    );
    await writeTree(dir, { "good/.env": "SECRET=1\n" });
    expect((await cli(["package", join(dir, "good"), "--out", out])).stdout).toBe(
      `wrote ${join(out, "good.skill")} (1 files)\nleft out 2 entries:\n  .env\n  evals/\n`,
    );
  });
});
