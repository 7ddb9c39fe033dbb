import { spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CREDENTIAL_VARIABLES } from "../../src/redact.js";
import { startSim } from "../../src/sim/index.js";
import { readJson, skillMd, tempDir, writeTree } from "./helpers.js";

const root = resolve(import.meta.dirname, "../..");
const bin = join(root, "bin", "skillgym.js");
const KEY = "sk-test-SECRET-7f3a9c1e5b2d8046";
const MARKER = "[redacted:ANTHROPIC_API_KEY]";

// Async, so the in-process simulator keeps answering while the CLI runs.
function skillgym(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: root, env });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("close", (code) => done({ code, output }));
  });
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

describe("a key printed by the agent (real mode, real Claude Code against skillgym sim)", () => {
  it("is absent from every file eval, triggers and view write, a marker in its place", async () => {
    await writeTree(dir, {
      "keyprint/SKILL.md": skillMd("keyprint", "Prints the environment. Use to debug.", "Run env."),
      "keyprint/evals/evals.json": JSON.stringify({
        evals: [
          {
            id: 1,
            prompt: "Show me the environment",
            expectations: ["The key is in key.txt"],
            checks: [
              { type: "file_contains", path: "key.txt", pattern: "sk-test-" },
              { type: "command", run: "cat key.txt notes.md" },
            ],
          },
        ],
      }),
      "keyprint/evals/triggers.json": JSON.stringify([
        { query: "Show me the environment", should_trigger: false },
      ]),
    });
    const steps = [
      { bash: "env" },
      { bash: "echo $ANTHROPIC_API_KEY > key.txt" },
      { bash: "printf 'bin\\000\\001' > key.bin && printenv ANTHROPIC_API_KEY >> key.bin" },
      { write: { path: "notes.md", content: `The key is ${KEY}\n` } },
      { text: `Your key is ${KEY}` },
    ];
    const sim = await startSim({
      script: {
        rules: [{ skill: "none", without_skill: steps }],
        // A judge that quotes the key in its evidence.
        judge: { default: "pass", verdicts: [{ match: "key", passed: true, evidence: `key.txt: ${KEY}` }] },
      },
    });
    const env: NodeJS.ProcessEnv = { ...process.env, ANTHROPIC_BASE_URL: sim.url, ANTHROPIC_API_KEY: KEY };
    for (const name of CREDENTIAL_VARIABLES) if (name !== "ANTHROPIC_API_KEY") delete env[name];
    const ws = join(dir, "ws");
    const report = join(dir, "report.html");
    try {
      const run = await skillgym(
        [
          "eval",
          join(dir, "keyprint"),
          "--baseline",
          "none",
          "--workspace",
          ws,
          "--timeout",
          "90",
          "--judge",
          "anthropic",
          "--judge-base-url",
          sim.url,
        ],
        env,
      );
      expect(run.code, run.output).toBe(0);
      const triggers = await skillgym(
        ["triggers", join(dir, "keyprint"), "--runs", "1", "--workspace", ws, "--timeout", "90"],
        env,
      );
      expect(triggers.code, triggers.output).toBe(0);
      const view = await skillgym(["view", ws, "--static", report], env);
      expect(view.code, view.output).toBe(0);
    } finally {
      await sim.close();
    }

    const runDir = join(ws, "iteration-1", "eval-1", "with_skill", "run-1");
    // The agent really had the key: the file it echoed it into holds the marker, not an empty line.
    expect(await readFile(join(runDir, "outputs", "key.txt"), "utf8")).toBe(`${MARKER}\n`);
    expect(await readFile(join(runDir, "outputs", "notes.md"), "utf8")).toBe(`The key is ${MARKER}\n`);
    const binary = await readFile(join(runDir, "outputs", "key.bin"));
    expect(binary).toEqual(Buffer.from(`bin\0\x01${MARKER}\n`, "latin1"));

    const written = [...(await filesUnder(ws)), report];
    const leaking = [];
    for (const file of written)
      if ((await readFile(file)).includes(Buffer.from(KEY))) leaking.push(relative(dir, file));
    expect(leaking).toEqual([]);

    const masked = [];
    for (const file of written)
      if ((await readFile(file)).includes(Buffer.from(MARKER))) masked.push(relative(runDir, file));
    expect(masked).toEqual(
      expect.arrayContaining([
        "transcript.jsonl",
        "transcript.md",
        "grading.json",
        join("outputs", "key.txt"),
        join("outputs", "notes.md"),
        join("outputs", "key.bin"),
      ]),
    );
    expect((await readFile(report, "utf8")).includes("redacted:ANTHROPIC_API_KEY")).toBe(true);
    const triggerTranscripts = written.filter((f) => /query-1.run-1.transcript\.(jsonl|md)$/.test(f));
    expect(triggerTranscripts).toHaveLength(2);
    for (const file of triggerTranscripts) expect(await readFile(file, "utf8")).toContain(MARKER);

    const grading = await readJson(join(runDir, "grading.json"));
    const evidence = (grading.expectations as { evidence: string }[]).map((e) => e.evidence);
    expect(evidence).toHaveLength(3);
    for (const text of evidence) expect(text).toContain(MARKER);
  }, 180_000);
});
