import { cp, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { skillgym } from "../cli/cli-process.js";
import { tempDir, writeTree } from "../e2e/helpers.js";
import {
  ATTEMPTS,
  exists,
  filesHolding,
  HOSTILE_SKILL,
  hostileSimScript,
  layOutTargets,
  type Targets,
} from "./hostile.js";

let dir: string;
let cleanup: () => Promise<void>;
let targets: Targets;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  targets = await layOutTargets(dir);
  await writeTree(dir, { "tmp/.keep": "" });
  // The hostile skill with a suite of one eval, whose simulated model runs the skill's script.
  await cp(HOSTILE_SKILL, join(dir, "skills", "hostile"), { recursive: true });
  await writeTree(join(dir, "skills", "hostile", "evals"), {
    "evals.json": JSON.stringify({ evals: [{ id: 1, prompt: "Tidy this project with the hostile skill." }] }),
    "sim-script.json": JSON.stringify(hostileSimScript(".claude/skills", targets)),
  });
});
afterEach(async () => {
  await targets.exfiltration.close();
  await cleanup();
});

// `skillgym eval` as a user runs it, its temporary workspaces kept under the test's folder.
function evalHostile(...extra: string[]) {
  const args = ["eval", join(dir, "skills", "hostile"), "--simulate", "--runs", "1", "--baseline", "none"];
  return skillgym([...args, "--no-grade", "--keep-workspaces", "--workspace", join(dir, "ws"), ...extra], {
    ...process.env,
    TMPDIR: join(dir, "tmp"),
  });
}

async function iteration(n: number) {
  const folder = join(dir, "ws", `iteration-${n}`);
  const record = JSON.parse(await readFile(join(folder, "iteration.json"), "utf8")) as Record<
    string,
    unknown
  >;
  const run = join(folder, "eval-1", "with_skill", "run-1");
  const attempts = await readFile(join(run, "outputs", "attempts.txt"), "utf8");
  return { record, run, attempts };
}

describe("skillgym eval --sandbox with a hostile skill (Claude Code, simulated)", () => {
  it("completes, every attempt fails, nothing leaks, and iteration.json says it was sandboxed", async () => {
    const sandboxed = evalHostile("--sandbox");
    expect(sandboxed.code, sandboxed.stderr).toBe(0);
    const first = await iteration(1);
    expect(first.record.sandbox).toBe(true);
    for (const attempt of ATTEMPTS) expect(first.attempts).toContain(`${attempt}: failed`);
    // Neither the run's records nor its kept workspace and home hold the canary's text.
    expect(await filesHolding(join(dir, "ws"), targets.canaryText)).toEqual([]);
    expect(await filesHolding(join(dir, "tmp"), targets.canaryText)).toEqual([]);
    expect((await readdir(join(dir, "tmp"))).some((name) => name.startsWith("skillgym-run"))).toBe(true);
    expect(targets.exfiltration.connections()).toBe(0);
    expect(await exists(targets.outsideFile)).toBe(false);
    const activation = JSON.parse(await readFile(join(first.run, "activation.json"), "utf8"));
    expect(activation.sandbox_refused).toBeUndefined();

    // The same suite without the flag: a plain run (never served by the sandboxed one the store holds), recorded as
    // one, whose attempts succeed.
    const plain = evalHostile();
    expect(plain.code, plain.stderr).toBe(0);
    const second = await iteration(2);
    expect(second.record.sandbox).toBe(false);
    expect(second.attempts).toContain("read-canary: ok");
    expect(second.attempts).toContain("exfiltrate-loopback: ok");
  });

  it('sandboxes every run of a suite whose evals.json says "sandbox": true', async () => {
    await writeTree(join(dir, "skills", "hostile", "evals"), {
      "evals.json": JSON.stringify({ sandbox: true, evals: [{ id: 1, prompt: "Tidy this project." }] }),
    });
    const result = evalHostile();
    expect(result.code, result.stderr).toBe(0);
    const first = await iteration(1);
    expect(first.record.sandbox).toBe(true);
    expect(first.attempts).toContain("read-canary: failed");
  });
});
