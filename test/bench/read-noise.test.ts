import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { NOISE_FILE, noiseSpreadFor } from "../../src/bench/read-noise.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function workspace(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "skillgym-noise-"));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  const ws = join(root, "demo-workspace");
  await mkdir(join(ws, "iteration-2", "claude-code"), { recursive: true });
  return ws;
}

const report = (spread: number) => ({
  measured_at: "2026-11-26T00:00:00Z",
  iteration_dir: "noise/iteration-1",
  runs_per_arm: 3,
  effect_floor: 0.05,
  evals: [],
  spread,
  false_calls: 0,
  false_call_rate: null,
});

describe("noiseSpreadFor", () => {
  it("reads the spread of noise.json in the workspace above the iteration", async () => {
    const ws = await workspace();
    await writeFile(join(ws, NOISE_FILE), JSON.stringify(report(0.25)));
    expect(NOISE_FILE).toBe("noise.json");
    expect(await noiseSpreadFor(join(ws, "iteration-2"))).toBe(0.25);
  });

  it("looks one level higher for one agent's folder of a run of several", async () => {
    const ws = await workspace();
    await writeFile(join(ws, NOISE_FILE), JSON.stringify(report(0.4)));
    expect(await noiseSpreadFor(join(ws, "iteration-2", "claude-code"))).toBe(0.4);
  });

  it("prefers the nearer noise.json when both levels hold one", async () => {
    const ws = await workspace();
    await writeFile(join(ws, NOISE_FILE), JSON.stringify(report(0.4)));
    await writeFile(join(ws, "iteration-2", NOISE_FILE), JSON.stringify(report(0.1)));
    expect(await noiseSpreadFor(join(ws, "iteration-2", "claude-code"))).toBe(0.1);
  });

  it("is undefined when none was measured or the file is not a noise report", async () => {
    const ws = await workspace();
    expect(await noiseSpreadFor(join(ws, "iteration-2"))).toBeUndefined();
    await writeFile(join(ws, NOISE_FILE), JSON.stringify({ spread: "wide" }));
    expect(await noiseSpreadFor(join(ws, "iteration-2"))).toBeUndefined();
  });
});
