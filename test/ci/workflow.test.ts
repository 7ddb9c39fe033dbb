import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { Io } from "../../src/cli/io.js";
import { buildProgram } from "../../src/cli/main.js";
import { root } from "../cli/cli-process.js";

interface Step {
  run?: string;
  uses?: string;
  with?: Record<string, unknown>;
}
interface Workflow {
  jobs: Record<string, { needs?: string; steps: Step[]; strategy?: { matrix: { shard: number[] } } }>;
  env: Record<string, string | number>;
}

const silentIo = (): Io => {
  let code = 0;
  return {
    out: () => {},
    err: () => {},
    status: () => {},
    setExitCode: (c: number) => {
      code = c;
    },
    exitCode: () => code,
  } as unknown as Io;
};

// A workflow command line with GitHub's expressions and shell variables given example values.
function argv(line: string): string[] {
  const expanded = line
    .replace(/\$\{\{\s*matrix\.shard\s*\}\}/g, "2")
    .replace(/\$\{\{\s*env\.SHARDS\s*\}\}/g, "4")
    .replace(/"\$SKILL"/g, "examples/csv-summary")
    .replace(/shards\/skillgym-shard-\*/g, "shards/skillgym-shard-1 shards/skillgym-shard-2");
  return expanded.split(/\s+/).filter(Boolean).slice(2); // drop "npx skillgym"
}

// Parses a command line against the real CLI's flags without running its action.
function parsesAgainstCli(args: string[]): { command: string; flags: Record<string, unknown> } {
  const program = buildProgram(silentIo());
  const name = args[0] as string;
  const command = program.commands.find((c) => c.name() === name);
  if (!command) throw new Error(`skillgym has no command ${name}`);
  let seen: Record<string, unknown> = {};
  command.action((...received: unknown[]) => {
    seen = received.at(-2) as Record<string, unknown>;
  });
  command.parse(args.slice(1), { from: "user" });
  return { command: name, flags: seen };
}

describe("examples/ci/skillgym.yml", async () => {
  const workflow = parse(await readFile(join(root, "examples/ci/skillgym.yml"), "utf8")) as Workflow;
  const commands = Object.values(workflow.jobs).flatMap((job) =>
    job.steps.flatMap((s) => (s.run?.startsWith("npx skillgym ") ? [s.run] : [])),
  );

  it("is a matrix of shards uploading their folders, then a merge job that downloads and merges them", () => {
    expect(Object.keys(workflow.jobs)).toEqual(["shard", "merge"]);
    expect(workflow.jobs.shard!.strategy!.matrix.shard).toHaveLength(Number(workflow.env.SHARDS));
    expect(workflow.jobs.merge!.needs).toBe("shard");
    expect(workflow.jobs.shard!.steps.some((s) => s.uses?.startsWith("actions/upload-artifact"))).toBe(true);
    expect(workflow.jobs.merge!.steps.some((s) => s.uses?.startsWith("actions/download-artifact"))).toBe(
      true,
    );
    expect(commands).toHaveLength(2);
  });

  it("runs only real skillgym commands and flags", () => {
    const [run, merge] = commands.map((c) => parsesAgainstCli(argv(c)));
    expect(run).toMatchObject({
      command: "run",
      flags: { shard: { index: 2, count: 4 }, junit: "shard-out/junit.xml" },
    });
    expect(merge).toMatchObject({
      command: "merge",
      flags: { into: "merged", minPassRate: 0.8, minTriggerAccuracy: 0.9 },
    });
  });

  it("would notice a flag the CLI does not have", () => {
    expect(() => parsesAgainstCli(["merge", "a", "--into", "m", "--no-such-flag"])).toThrow();
  });
});
