import { lstat, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { onDouble } from "../agent-double/index.js";
import { skillgymHere, skillgymHereOnDouble } from "../cli/cli-in-process.js";
import { readJson, skillMd, tempDir, writeTree } from "./helpers.js";

let dir: string;
let cleanup: () => Promise<void>;

// A skill whose script leaves what the attacker left: a 3 GB sparse file, or 20,000 empty files.
const MAKE_BIG = "mkdir -p out && truncate -s 3G out/big.bin && echo done > out/note.txt\n";
const MAKE_MANY = "mkdir -p many && cd many && seq 1 20000 | xargs touch\n";

async function layOut(evals: { id: number; prompt: string }[], rules: unknown[]): Promise<void> {
  await writeTree(dir, {
    "flood/SKILL.md": skillMd(
      "flood",
      "Makes output files. Use when asked to make the big output or many outputs.",
      "Run scripts/make-big.sh or scripts/make-many.sh from the workspace.",
    ),
    "flood/scripts/make-big.sh": MAKE_BIG,
    "flood/scripts/make-many.sh": MAKE_MANY,
    "flood/evals/evals.json": JSON.stringify({ evals }),
    "flood/evals/sim-script.json": JSON.stringify({ rules }),
  });
}

const runScript = (name: string) => ({ bash: `bash .claude/skills/flood/scripts/${name}` });

// Bytes on disk (st_blocks), not apparent sizes: what the host really paid for the folder.
async function diskBytes(path: string): Promise<number> {
  const info = await lstat(path);
  if (!info.isDirectory()) return info.blocks * 512;
  let total = info.blocks * 512;
  for (const name of await readdir(path)) total += await diskBytes(join(path, name));
  return total;
}

async function timingOf(runDir: string) {
  return (await readJson(join(runDir, "timing.json"))) as { outcome: string; error?: string };
}

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

describe("a run's outputs over a limit", () => {
  it("a 3 GB sparse file errors its run, copies nothing, and the rest of the iteration goes on", async () => {
    await layOut(
      [
        { id: 1, prompt: "Make the big output" },
        { id: 2, prompt: "Write the summary" },
      ],
      [
        { match: "big output", skill: "none", without_skill: [runScript("make-big.sh"), { text: "Made." }] },
        {
          match: "summary",
          skill: "none",
          without_skill: [{ write: { path: "summary.md", content: "# Summary\n" } }, { text: "Wrote it." }],
        },
      ],
    );
    const ws = join(dir, "ws");
    const args = [
      "eval",
      join(dir, "flood"),
      "--simulate",
      "--baseline",
      "none",
      "--runs",
      "1",
      "--no-grade",
    ];
    const result = await skillgymHereOnDouble([...args, "--timeout", "120", "--workspace", ws]);
    expect([0, 1], result.stderr).toContain(result.code);
    expect(result.stderr).toContain(
      "outputs over the limit: out/big.bin is 3.0 GB (apparent size), the largest file allowed is 50 MB (--max-output-file)",
    );

    const iteration = join(ws, "iteration-1");
    expect((await readJson(join(iteration, "iteration.json"))).status).toBe("complete");
    const big = join(iteration, "eval-1", "with_skill", "run-1");
    const timing = await timingOf(big);
    expect(timing.outcome).toBe("output_limit");
    expect(timing.error).toContain("out/big.bin is 3.0 GB (apparent size)");
    // Nothing of the run's outputs was kept, not even its small file: only the record skillgym writes.
    expect(await readdir(join(big, "outputs"))).toEqual(["metrics.json"]);
    expect(await diskBytes(ws)).toBeLessThan(20 * 1024 ** 2);

    const small = join(iteration, "eval-2", "with_skill", "run-1");
    expect((await timingOf(small)).outcome).toBe("success");
    expect(await readFile(join(small, "outputs", "summary.md"), "utf8")).toBe("# Summary\n");
  });

  it("20,000 files error their run within its time, counting stopped at the limit", async () => {
    await layOut(
      [{ id: 1, prompt: "Make many outputs" }],
      [
        {
          match: "many outputs",
          skill: "none",
          without_skill: [runScript("make-many.sh"), { text: "Made." }],
        },
      ],
    );
    const ws = join(dir, "ws");
    const args = [
      "eval",
      join(dir, "flood"),
      "--simulate",
      "--baseline",
      "none",
      "--runs",
      "1",
      "--no-grade",
    ];
    const started = Date.now();
    const result = await skillgymHereOnDouble([...args, "--timeout", "60", "--workspace", ws]);
    const seconds = (Date.now() - started) / 1000;
    expect([0, 1], result.stderr).toContain(result.code);
    // The run's 60 s, the floor of collecting and a Node start: far from minutes of listing and copying.
    expect(seconds).toBeLessThan(100);
    const runDir = join(ws, "iteration-1", "eval-1", "with_skill", "run-1");
    const timing = await timingOf(runDir);
    expect(timing.outcome).toBe("output_limit");
    expect(timing.error).toBe(
      "outputs over the limit: more than 10,000 files created or changed (counting stopped there), the most allowed is 10,000 (--max-output-files)",
    );
    expect(await readdir(join(runDir, "outputs"))).toEqual(["metrics.json"]);
    expect((await readJson(join(ws, "iteration-1", "iteration.json"))).status).toBe("complete");
  });
});

describe("bad limits stop the command before any agent starts", () => {
  it("a flag that is not a size names the flag", async () => {
    await layOut([{ id: 1, prompt: "Make the big output" }], []);
    const result = await skillgymHere(
      onDouble(["eval", join(dir, "flood"), "--simulate", "--max-output-file", "lots"]),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("'--max-output-file <size>' argument 'lots' is invalid");
    expect(result.stderr).toContain("expected a size such as 200MB, 50MB or 1GB");
  });

  it("an evals.json setting that is not a size names the file and the place", async () => {
    await layOut([{ id: 1, prompt: "Make the big output" }], []);
    await writeTree(dir, {
      "flood/evals/evals.json": JSON.stringify({ max_output: "lots", evals: [{ id: 1, prompt: "Make it" }] }),
    });
    const ws = join(dir, "ws");
    const result = await skillgymHereOnDouble(["eval", join(dir, "flood"), "--simulate", "--workspace", ws]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("evals.json");
    expect(result.stderr).toContain("max_output");
    expect(result.stderr).toContain('expected a size such as "200MB", "50MB" or "1GB"');
    await expect(lstat(join(ws, "iteration-1"))).rejects.toThrow(/ENOENT/);
  });

  it("an evals.json limit applies when no flag is given, and the flag wins over it", async () => {
    await layOut(
      [{ id: 1, prompt: "Make the big output" }],
      [{ match: "big output", skill: "none", without_skill: [runScript("make-big.sh"), { text: "Made." }] }],
    );
    const evals = {
      max_output_file: "2GB",
      max_output: "4GB",
      evals: [{ id: 1, prompt: "Make the big output" }],
    };
    await writeTree(dir, { "flood/evals/evals.json": JSON.stringify(evals) });
    const args = [
      "eval",
      join(dir, "flood"),
      "--simulate",
      "--baseline",
      "none",
      "--runs",
      "1",
      "--no-grade",
    ];
    const cases = [
      { flags: [], allowed: "2.0 GB" },
      { flags: ["--max-output-file", "1GB"], allowed: "1.0 GB" },
    ];
    for (const [i, { flags, allowed }] of cases.entries()) {
      const ws = join(dir, `ws-${i}`);
      const result = await skillgymHereOnDouble([...args, ...flags, "--workspace", ws]);
      expect([0, 1], result.stderr).toContain(result.code);
      const timing = await timingOf(join(ws, "iteration-1", "eval-1", "with_skill", "run-1"));
      expect(timing.error).toContain(`the largest file allowed is ${allowed} (--max-output-file)`);
    }
  });
});
