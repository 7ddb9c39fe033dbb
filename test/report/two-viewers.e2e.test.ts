import { type ChildProcess, spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir, writeFakeIteration } from "./workspace-fixture.js";

const root = resolve(import.meta.dirname, "../..");
const bin = join(root, "bin", "skillgym.js");

let ws: Awaited<ReturnType<typeof tempDir>>;
const viewers: ChildProcess[] = [];
beforeEach(async () => {
  ws = await tempDir();
});
afterEach(async () => {
  await Promise.all(
    viewers.splice(0).map(
      (child) =>
        new Promise<void>((r) => {
          if (child.exitCode !== null) return r();
          child.once("close", () => r());
          child.kill("SIGTERM");
        }),
    ),
  );
  await ws.cleanup();
});

// A real `skillgym view` process; resolves to its URL once it listens.
function startViewer(folder: string): Promise<string> {
  const child = spawn(process.execPath, [bin, "view", folder, "--port", "0", "--no-open"], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  viewers.push(child);
  return new Promise((resolvePromise, reject) => {
    let out = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      out += chunk;
      const url = /skillgym view: (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      if (url) resolvePromise(url);
    });
    child.once("close", (code) => reject(new Error(`view exited with ${code}: ${out}`)));
  });
}

describe("two viewers on one iteration folder", () => {
  it("keep every review of 18 parallel POSTs split across both processes", async () => {
    const iteration = join(ws.dir, "demo-workspace", "iteration-1");
    await writeFakeIteration(iteration, { evals: 3, runsPerConfiguration: 3 });
    const [a, b] = await Promise.all([startViewer(iteration), startViewer(iteration)]);
    expect(a).not.toBe(b);
    const runIds = [1, 2, 3].flatMap((e) =>
      ["with_skill", "without_skill"].flatMap((c) => [1, 2, 3].map((r) => `eval-e${e}-${c}-run-${r}`)),
    );
    expect(runIds).toHaveLength(18);
    const answers = await Promise.all(
      runIds.map((runId, i) =>
        fetch(`${i % 2 === 0 ? a : b}/api/feedback`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ iteration: 1, run_id: runId, feedback: `review ${i}` }),
        }).then((res) => res.status),
      ),
    );
    expect(answers).toEqual(runIds.map(() => 200));
    const saved = JSON.parse(await readFile(join(iteration, "feedback.json"), "utf8"));
    const kept = Object.fromEntries(
      saved.reviews.map((r: { run_id: string; feedback: string }) => [r.run_id, r.feedback]),
    );
    expect(kept).toEqual(Object.fromEntries(runIds.map((runId, i) => [runId, `review ${i}`])));
  });
});
