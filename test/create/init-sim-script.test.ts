import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { captureIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { SimScript } from "../../src/contracts/sim-script.js";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "skillgym-init-sim-"));
  await mkdir(join(root, ".git"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function cli(...argv: string[]) {
  const io = captureIo();
  const code = await main(argv, io);
  return { code, out: io.stdout(), err: io.stderr() };
}

describe("init's sim script", () => {
  it("is written beside the example suite, valid, and names the skill by plain name and trigger-run name", async () => {
    const dir = join(root, "csv-tables");
    const made = await cli("init", dir);
    expect(made.out).toContain("evals/sim-script.json");
    const script = SimScript.parse(JSON.parse(await readFile(join(dir, "evals", "sim-script.json"), "utf8")));
    expect(script.rules.map((r) => r.skill)).toEqual(["csv-tables", "~csv-tables-sg-", "none"]);
    const evals = JSON.parse(await readFile(join(dir, "evals", "evals.json"), "utf8"));
    const triggers = JSON.parse(await readFile(join(dir, "evals", "triggers.json"), "utf8")) as {
      query: string;
      should_trigger: boolean;
    }[];
    const ruleFor = (prompt: string) =>
      script.rules.find((r) => r.match !== undefined && new RegExp(r.match, "i").test(prompt));
    expect(ruleFor(evals.evals[0].prompt)?.skill).toBe("csv-tables");
    for (const t of triggers)
      expect(ruleFor(t.query)?.skill).toBe(t.should_trigger ? "~csv-tables-sg-" : "none");
  });

  it("is pointed out when draft-evals replaces the suite it scripts", async () => {
    const dir = join(root, "csv-tables");
    await cli("init", dir);
    const drafted = await cli("draft-evals", dir, "--simulate", "--force");
    expect(drafted.code).toBe(0);
    expect(drafted.out).toContain(`note: ${join(dir, "evals", "sim-script.json")} scripts the earlier suite`);
  });
});
