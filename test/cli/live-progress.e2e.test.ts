import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { doubleFlags } from "../agent-double/index.js";
import { tempDir } from "../e2e/helpers.js";
import { bin, root, shellLine } from "./cli-process.js";

// Erase line, and cursor up: what a status redrawn in place writes between its frames.
const ERASE_LINE = "\u001b[2K";
const CURSOR_UP = "\u001b[1A";
const lines = (text: string) =>
  text
    .replaceAll("\r", "")
    .split("\n")
    .filter((l) => l.trim() !== "");

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

describe("progress of `skillgym eval` (real CLI, the Claude Code test double against skillgym sim)", () => {
  const evalArgs = () => [
    bin,
    "eval",
    ...doubleFlags,
    "examples/csv-summary",
    "--simulate",
    "--concurrency",
    "2",
    "--workspace",
    join(dir, "ws"),
  ];

  it("on a terminal, redraws a live status in place and ends with the pass rates", () => {
    // util-linux `script` gives the command a pseudo-terminal; stty gives it a size, as a real terminal has.
    const command = `stty cols 160 rows 40; cd '${root}' && ${shellLine([process.execPath, ...evalArgs()])}`;
    const result = spawnSync("script", ["-qfec", command, "/dev/null"], {
      encoding: "utf8",
      timeout: 180_000,
    });
    expect(result.status).toBe(0);
    const output = result.stdout;
    expect(output).toContain(ERASE_LINE);
    expect(output).toContain(CURSOR_UP);
    expect(output).toMatch(
      /eval runs 0\/6 done · \d running · \d+ queued · \ds elapsed · time left: estimating/,
    );
    expect(output).toMatch(/\d grading/);
    expect(output).toMatch(/eval runs [1-5]\/6 done .* about \S+ left · \$0\.00 spent/);
    // The per-run lines stay in the scrollback above the status.
    expect(output).toContain("[6/6] eval-");
    const shown = lines(output);
    expect(shown.at(-2) ?? "").toMatch(/^evals: with_skill \d+%, without_skill \d+%, delta [+-]\d\.\d\d/);
    expect(shown.at(-1) ?? "").toMatch(/^verdict: the skill /);
  });

  it("into a pipe, prints plain lines: the plan first, the pass rates last, no escape codes", () => {
    const result = spawnSync("sh", ["-c", `${shellLine([process.execPath, ...evalArgs()])} 2>&1`], {
      cwd: root,
      encoding: "utf8",
      timeout: 180_000,
    });
    expect(result.status).toBe(0);
    expect(result.stdout).not.toContain("\u001b");
    const all = lines(result.stdout);
    expect(all[0]).toMatch(/^writing .*iteration-1: 6 runs \[SIMULATED/);
    expect(all.filter((l) => /^\[\d\/6\] eval-\d (with|without)_skill run-1: ok/.test(l))).toHaveLength(6);
    expect(all.at(-2)).toMatch(/^evals: with_skill \d+%, without_skill \d+%, delta [+-]\d\.\d\d/);
    expect(all.at(-1)).toMatch(/^verdict: the skill /);
  });
});
