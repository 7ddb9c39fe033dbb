import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SkillgymError } from "../../src/errors.js";
import { findIteration, previousIteration, resolveViewTarget } from "../../src/report/target.js";
import { tempDir, writeFiles } from "./workspace-fixture.js";

let ws: Awaited<ReturnType<typeof tempDir>>;
const at = (path: string) => join(ws.dir, path);

beforeAll(async () => {
  ws = await tempDir("skillgym-target-");
  await writeFiles(ws.dir, {
    "w/iteration-2/eval-a/x.txt": "",
    "w/iteration-10/eval-a/x.txt": "",
    "w/iteration-3": "a file, not an iteration",
    "w/iteration-x/eval-a/x.txt": "",
    "w/notes.txt": "",
    "w/old-iteration-5/eval-a/x.txt": "",
    "w/iteration-6-old/eval-a/x.txt": "",
    "cats/catalog-2/catalog.json": "{}",
    "cats/catalog-1/catalog.json": "{}",
    "cats/catalog-9": "a file",
    "only-triggers/triggers/x.json": "{}",
    "only-record/iteration.json": "{}",
    "only-benchmark/benchmark.json": "{}",
    "file-named-eval/eval-a": "a file",
    "folder-named-record/iteration.json/x": "",
    "folder-named-catalog/catalog-1x/x": "",
    "lone/iteration-4/eval-a/x.txt": "",
    "file-named-catalog/catalog-1": "a file",
    "file-named-triggers/triggers": "a file",
    "folder-named-benchmark/benchmark.json/x": "",
    "folder-named-old-catalog/old-catalog-1/x": "",
    "folder-ending-eval/old-eval-/x": "",
    "named-like/iteration-4x/eval-a/x.txt": "",
    "named-like/old-iteration-7/eval-a/x.txt": "",
  });
});
afterAll(() => ws.cleanup());

describe("resolveViewTarget", () => {
  it("takes only folders named iteration-<N>, in number order", async () => {
    const target = await resolveViewTarget(at("w"));
    expect(target).toEqual({
      path: at("w"),
      root: at("w"),
      shown: [
        { number: 2, name: "iteration-2", dir: at("w/iteration-2") },
        { number: 10, name: "iteration-10", dir: at("w/iteration-10") },
      ],
      all: [
        { number: 2, name: "iteration-2", dir: at("w/iteration-2") },
        { number: 10, name: "iteration-10", dir: at("w/iteration-10") },
      ],
    });
  });

  it("reads a workspace of catalogs, and one catalog folder within its workspace", async () => {
    expect(await resolveViewTarget(at("cats"))).toEqual({
      path: at("cats"),
      root: at("cats"),
      shown: [],
      all: [],
    });
    expect(await resolveViewTarget(at("cats/catalog-2"))).toEqual({
      path: at("cats/catalog-2"),
      root: at("cats"),
      shown: [],
      all: [],
    });
  });

  it.each(["only-triggers", "only-record", "only-benchmark"])("reads %s as one iteration", async (name) => {
    const target = await resolveViewTarget(at(name));
    expect(target.shown).toEqual([{ number: 1, name, dir: at(name) }]);
  });

  it.each([
    "file-named-eval",
    "folder-named-record",
    "folder-named-catalog",
    "file-named-catalog",
    "file-named-triggers",
    "folder-named-benchmark",
    "folder-named-old-catalog",
    "folder-ending-eval",
  ])("refuses %s: nothing to show", async (name) => {
    const refused = await resolveViewTarget(at(name)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SkillgymError);
    expect((refused as SkillgymError).message).toBe(
      `${at(name)}: holds no iteration-<N>/, eval-<id>/ or catalog-<N>/ folder: nothing to show`,
    );
  });

  it("says what to give instead, naming the file", async () => {
    const refused = (await resolveViewTarget(at("nope")).catch((error: unknown) => error)) as SkillgymError;
    expect(refused.message).toBe(`${at("nope")}: no such folder`);
    expect(refused).toMatchObject({
      code: "BAD_INPUT",
      file: at("nope"),
      hint: "give a skill's workspace folder (holding iteration-<N>/ folders) or one iteration-<N>/ folder",
    });
    expect(((await resolveViewTarget(at("w/notes.txt")).catch((e: unknown) => e)) as Error).message).toBe(
      `${at("w/notes.txt")}: not a folder`,
    );
  });

  it("reads an iteration folder with its number, within its workspace", async () => {
    const target = await resolveViewTarget(at("lone/iteration-4"));
    expect(target).toEqual({
      path: at("lone/iteration-4"),
      root: at("lone"),
      shown: [{ number: 4, name: "iteration-4", dir: at("lone/iteration-4") }],
      all: [{ number: 4, name: "iteration-4", dir: at("lone/iteration-4") }],
    });
  });

  it("reads a folder named only like an iteration as one iteration of its own", async () => {
    for (const name of ["iteration-4x", "old-iteration-7"]) {
      const path = at(`named-like/${name}`);
      expect(await resolveViewTarget(path)).toEqual({
        path,
        root: path,
        shown: [{ number: 1, name, dir: path }],
        all: [{ number: 1, name, dir: path }],
      });
    }
  });
});

describe("findIteration and previousIteration", () => {
  it("find a shown iteration by number, and the latest one before a number", async () => {
    const target = await resolveViewTarget(at("w/iteration-10"));
    expect(findIteration(target, 10)?.name).toBe("iteration-10");
    expect(findIteration(target, 2)).toBeUndefined();
    expect(previousIteration(target, 10)?.name).toBe("iteration-2");
    expect(previousIteration(target, 11)?.name).toBe("iteration-10");
    expect(previousIteration(target, 2)).toBeUndefined();
  });
});
