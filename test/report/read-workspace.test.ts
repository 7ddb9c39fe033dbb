import { symlink } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { readOutputs } from "../../src/report/output-files.js";
import { resolveViewTarget } from "../../src/report/target.js";
import { parseRunId } from "../../src/runlog/list-runs.js";
import { tempDir, writeFakeIteration, writeFiles } from "./workspace-fixture.js";

let ws: Awaited<ReturnType<typeof tempDir>>;
const workspace = () => join(ws.dir, "demo-workspace");

beforeAll(async () => {
  ws = await tempDir();
  for (const n of [1, 2, 10])
    await writeFakeIteration(join(workspace(), `iteration-${n}`), { evals: 1, runsPerConfiguration: 1 });
  await writeFiles(ws.dir, {
    "secret.txt": "secret",
    "loose/eval-a/with_skill/run-1/outputs/x.md": "x",
    "outs/README.md": "# readme",
    "outs/sub/data.json": "{}",
    "outs/photo.png": Buffer.from([0x89, 0x50, 0x4e, 0x47]),
    "outs/tool": Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0]),
    "outs/notes": "plain words, no extension",
    "outs/metrics.json": "{}",
    "outs/big.log": "y".repeat(5000),
    "empty/readme.txt": "nothing to show here",
  });
  await symlink(join(ws.dir, "secret.txt"), join(ws.dir, "outs", "link.txt"));
});

afterAll(async () => {
  await ws.cleanup();
});

describe("resolveViewTarget", () => {
  it("reads a workspace as all its iterations, in number order", async () => {
    const target = await resolveViewTarget(workspace());
    expect(target.shown.map((it) => it.name)).toEqual(["iteration-1", "iteration-2", "iteration-10"]);
    expect(target.all).toEqual(target.shown);
  });

  it("reads an iteration folder as that one iteration, with its workspace around it", async () => {
    const target = await resolveViewTarget(join(workspace(), "iteration-2"));
    expect(target.shown.map((it) => it.number)).toEqual([2]);
    expect(target.all.map((it) => it.number)).toEqual([1, 2, 10]);
    expect(target.root).toBe(workspace());
  });

  it("reads a folder of evals under another name as one iteration, alone", async () => {
    const target = await resolveViewTarget(join(ws.dir, "loose"));
    expect(target.shown).toEqual([{ number: 1, name: "loose", dir: join(ws.dir, "loose") }]);
    expect(target.root).toBe(join(ws.dir, "loose"));
  });

  it("refuses a folder with nothing to show, naming it", async () => {
    await expect(resolveViewTarget(join(ws.dir, "empty"))).rejects.toThrow(
      `${join(ws.dir, "empty")}: holds no`,
    );
    await expect(resolveViewTarget(join(ws.dir, "secret.txt"))).rejects.toThrow(/not a folder/);
  });
});

describe("parseRunId", () => {
  it("accepts only eval-<id>/<configuration>/run-<k>", () => {
    expect(parseRunId("eval-1/with_skill/run-2")).toMatchObject({ evalDir: "eval-1", runNumber: 2 });
    for (const bad of [
      "eval-1/with_skill",
      "../eval-1/x/run-1",
      "eval-1/../run-1",
      "x/with_skill/run-1",
      "eval-1/a/b/run-1",
      "eval-1/with_skill/run-x",
    ]) {
      expect(parseRunId(bad)).toBeUndefined();
    }
  });
});

describe("readOutputs", () => {
  it("lists regular files with their kinds, leaves out metrics.json and symlinks, and cuts long text", async () => {
    const { files, omitted } = await readOutputs(join(ws.dir, "outs"), {
      root: ws.dir,
      urlFor: (p) => `/f/${p}`,
      limits: { maxTextBytes: 1000 },
    });
    expect(omitted).toBe(0);
    expect(files.map((f) => [f.path, f.kind])).toEqual([
      ["big.log", "text"],
      ["notes", "text"],
      ["photo.png", "image"],
      ["README.md", "markdown"],
      ["sub/data.json", "json"],
      ["tool", "binary"],
    ]);
    const big = files[0]!;
    expect(big.text).toHaveLength(1000);
    expect(big.truncated).toBe(true);
    expect(big.url).toBe("/f/outs/big.log");
    expect(files.find((f) => f.kind === "binary")?.text).toBeUndefined();
  });

  it("embeds images and small downloads as data: URLs when there is no server, and counts what it leaves out", async () => {
    const { files, omitted } = await readOutputs(join(ws.dir, "outs"), {
      root: ws.dir,
      limits: { maxFiles: 3 },
    });
    expect(files).toHaveLength(3);
    expect(omitted).toBe(3);
    expect(files.find((f) => f.path === "photo.png")?.url).toBe("data:image/png;base64,iVBORw==");
    expect(files.find((f) => f.path === "notes")?.url).toBeUndefined();
  });
});

describe("skillgym view", () => {
  it("exits 2 naming a folder that is not a workspace", async () => {
    const io = captureIo();
    expect(await main(["view", join(ws.dir, "empty"), "--no-open"], io)).toBe(2);
    expect(io.stderr()).toContain(join(ws.dir, "empty"));
    expect(io.stderr()).toContain("fix:");
  });
});
