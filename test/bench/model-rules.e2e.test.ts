import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { skillgymHere, skillgymHereOnDouble } from "../cli/cli-in-process.js";
import { tempDir } from "../e2e/helpers.js";
import { cardEval, greeterRunArgs, noteEval, writeGreeter, writeGreeterSuite } from "./greeter-models.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeGreeter(dir);
});
afterEach(() => cleanup());

const suite = (evals: Parameters<typeof writeGreeterSuite>[1]) => writeGreeterSuite(dir, evals);

// Both models in one iteration: a folder and a matrix row per model.
async function runModels(models: string) {
  const result = await skillgymHereOnDouble(greeterRunArgs(dir, models, join(dir, "ws")));
  expect(result.code, result.stderr).toBe(0);
  return { ...result, iteration: join(dir, "ws", "iteration-1") };
}

describe("--model a,b through the agent test double", () => {
  it("the same skill helps on the old model and is redundant on the new one, side by side", async () => {
    await suite([cardEval]);
    const both = await runModels("old,new");
    expect(both.stderr).toContain("== old (model 1 of 2) ==");
    expect(both.stderr).toContain("== new (model 2 of 2) ==");
    const row = (model: string) => both.stdout.split("\n").find((l) => l.includes(`· ${model} `)) ?? "";
    expect(row("old")).toMatch(/ 100% +0% \(without_skill\) .* helps /);
    expect(row("new")).toMatch(/ 100% +100% \(without_skill\) .* redundant /);

    const matrix = JSON.parse(await readFile(join(both.iteration, "matrix.json"), "utf8"));
    expect(
      matrix.agents.map((r: Record<string, unknown>) => [r.agent, r.model, r.dir, r.verdict, r.redundant]),
    ).toEqual([
      ["claude-code", "old", "old", "helps", undefined],
      ["claude-code", "new", "new", "no effect", true],
    ]);
    // Each model's folder is an ordinary iteration, its benchmark naming the model it ran.
    for (const model of ["old", "new"]) {
      const benchmark = JSON.parse(await readFile(join(both.iteration, model, "benchmark.json"), "utf8"));
      expect(benchmark.metadata.executor_model).toBe(model);
    }
    // A plain run of one model gives what that model's part gave.
    const plain = await skillgymHereOnDouble(greeterRunArgs(dir, "new", join(dir, "ws-plain")));
    expect(plain.code, plain.stderr).toBe(0);
    const summary = async (iteration: string) => {
      const b = JSON.parse(await readFile(join(iteration, "benchmark.json"), "utf8"));
      // Everything but the times, which differ from run to run, and the tokens, which count
      // the prompt and so the length of the folder path each run worked in.
      const rates = Object.fromEntries(
        ["with_skill", "without_skill"].map((c) => [c, b.run_summary[c].pass_rate]),
      );
      return [
        rates,
        b.statistics.delta_pass_rate,
        b.statistics.verdict,
        b.statistics.redundant?.baseline_pass_rate,
      ];
    };
    expect(await summary(join(dir, "ws-plain", "iteration-1"))).toEqual(
      await summary(join(both.iteration, "new")),
    );
    const record = JSON.parse(await readFile(join(both.iteration, "iteration.json"), "utf8"));
    expect(record.agents).toEqual(["old", "new"]);
    expect(record.lanes).toEqual([
      { agent: "claude-code", model: "old", dir: "old" },
      { agent: "claude-code", model: "new", dir: "new" },
    ]);
  });

  it("diff calls the eval that breaks on the new model regressed, and the same model twice unchanged", async () => {
    await suite([cardEval, noteEval]);
    const both = await runModels("old,new");
    const regressed = await skillgymHere([
      "diff",
      join(both.iteration, "old"),
      join(both.iteration, "new"),
      "--fail-on-regression",
      "--json",
    ]);
    expect(regressed.code).toBe(1);
    const report = JSON.parse(regressed.stdout);
    expect(report.parts[0].evals.map((e: { change: string }) => e.change)).toEqual([
      "unchanged",
      "regressed",
    ]);

    // The iteration against itself: every part pairs with its namesake, and nothing moves.
    const same = await skillgymHere([
      "diff",
      both.iteration,
      both.iteration,
      "--fail-on-regression",
      "--json",
    ]);
    expect(same.code, same.stderr).toBe(0);
    const sameReport = JSON.parse(same.stdout);
    expect(sameReport.parts.map((p: { agent: string }) => p.agent)).toEqual(["old", "new"]);
    expect(sameReport.regressions).toBe(0);
    for (const part of sameReport.parts)
      expect(part.evals.map((e: { change: string }) => e.change)).toEqual(["unchanged", "unchanged"]);
  });

  it("eval and triggers take --model a,b too: each runs its own stage alone, a part per model", async () => {
    await suite([cardEval]);
    await writeFile(
      join(dir, "greeter", "evals", "triggers.json"),
      JSON.stringify([
        { query: "Make a birthday card for my aunt", should_trigger: true },
        { query: "Please explain what a monad is", should_trigger: false },
      ]),
    );
    const common = ["--simulate", "--sim-script", join(dir, "sim.json"), "--model", "old,new"];
    const ws = join(dir, "ws");
    const evals = await skillgymHereOnDouble([
      "eval",
      join(dir, "greeter"),
      ...common,
      "--runs",
      "2",
      "--workspace",
      ws,
    ]);
    expect(evals.code, evals.stderr).toBe(0);
    expect(evals.stdout).toContain("models of");
    const triggers = await skillgymHereOnDouble([
      "triggers",
      join(dir, "greeter"),
      ...common,
      "--runs",
      "1",
      "--workspace",
      ws,
    ]);
    expect(triggers.code, triggers.stderr).toBe(0);

    const matrixOf = async (n: number) =>
      JSON.parse(await readFile(join(ws, `iteration-${n}`, "matrix.json"), "utf8")).agents as {
        verdict?: string;
        triggers: { accuracy: number } | null;
      }[];
    const evalRows = await matrixOf(1);
    expect(evalRows.map((r) => [r.verdict, r.triggers])).toEqual([
      ["helps", null],
      ["no effect", null],
    ]);
    expect(await readdir(join(ws, "iteration-1", "old"))).not.toContain("triggers");
    const triggerRows = await matrixOf(2);
    expect(triggerRows.map((r) => [r.verdict, r.triggers?.accuracy])).toEqual([
      [undefined, 1],
      [undefined, 0.5],
    ]);
    expect((await readdir(join(ws, "iteration-2", "new"))).filter((f) => f.startsWith("eval-"))).toEqual([]);
  });
});
