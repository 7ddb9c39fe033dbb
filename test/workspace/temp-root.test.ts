import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { pidNamespace } from "../../src/owned-temp.js";
import { createTempRoot, sweepStaleTempRoots } from "../../src/workspace/temp-root.js";

let parent: string;
beforeEach(async () => {
  parent = await mkdtemp(join(tmpdir(), "skillgym-temp-root-test-"));
});
afterEach(async () => {
  await rm(parent, { recursive: true, force: true });
});

// The PID of a process that has exited and been reaped.
function deadPid(): number {
  const pid = spawnSync(process.execPath, ["-e", "0"]).pid;
  if (!pid) throw new Error("could not start a short-lived process");
  return pid;
}

async function folder(name: string, withFile = true): Promise<string> {
  const dir = join(parent, name);
  await mkdir(join(dir, "home", ".claude"), { recursive: true });
  if (withFile) await writeFile(join(dir, "home", ".claude", "settings.json"), "{}", "utf8");
  return dir;
}

describe("temp roots", () => {
  it("names a new root after its kind and owner process", async () => {
    const dir = await createTempRoot("run", { parent });
    expect(existsSync(dir)).toBe(true);
    expect(basename(dir)).toMatch(
      new RegExp(`^skillgym-run\\.${process.pid}\\.\\d+\\.${pidNamespace()}-[A-Za-z0-9]{6}$`),
    );
  });

  it("judges only the roots of its own PID namespace: another namespace's PIDs mean nothing here", async () => {
    const dead = deadPid();
    const here = pidNamespace();
    const elsewhere = String(Number(here) + 1);
    const ours = await folder(`skillgym-run.${dead}.0.${here}-abc123`);
    const theirs = await folder(`skillgym-run.${dead}.0.${elsewhere}-abc123`);
    expect(await sweepStaleTempRoots(parent)).toEqual([ours]);
    expect(existsSync(theirs)).toBe(true);
  });

  it("removes a dead owner's root, keeps a live one's and every folder it did not make", async () => {
    const live = await createTempRoot("grade", { parent });
    const dead = deadPid();
    const stale = await folder(`skillgym-run.${dead}.0-abc123`);
    const staleJudge = await folder(`skillgym-judge.${dead}.12345-Zz09aB`);
    const foreign = [
      await folder(`skillgym-${dead}-abc123`),
      await folder("skillgym-test-abc123"),
      await folder(`other-run.${dead}.0-abc123`),
      await folder(`skillgym-run.${dead}.0-abc123-extra`),
    ];
    await writeFile(join(parent, `skillgym-triggers.${dead}.0-fileXX`), "not a folder", "utf8");

    const removed = await sweepStaleTempRoots(parent);

    expect(removed.sort()).toEqual([stale, staleJudge].sort());
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(staleJudge)).toBe(false);
    expect(existsSync(live)).toBe(true);
    for (const dir of foreign) expect(existsSync(dir)).toBe(true);
    expect(existsSync(join(parent, `skillgym-triggers.${dead}.0-fileXX`))).toBe(true);
  });

  it.skipIf(process.platform !== "linux")(
    "removes a root whose PID now belongs to another process",
    async () => {
      const ownStart = readFileSync("/proc/self/stat", "utf8").split(") ")[1]?.split(" ")[19];
      const reused = await folder(`skillgym-run.${process.pid}.${Number(ownStart) + 1}-abc123`);
      const own = await folder(`skillgym-run.${process.pid}.${ownStart}-abc123`);
      await sweepStaleTempRoots(parent);
      expect(existsSync(reused)).toBe(false);
      expect(existsSync(own)).toBe(true);
    },
  );

  it("keeps a dead owner's root that was made to be kept", async () => {
    const kept = await createTempRoot("run", { parent, keep: true });
    const dead = deadPid();
    // The same root as a dead process would have left it.
    const moved = join(parent, basename(kept).replace(`.${process.pid}.`, `.${dead}.`));
    await mkdir(moved);
    for (const name of await readdir(kept)) await writeFile(join(moved, name), "x", "utf8");
    await sweepStaleTempRoots(parent);
    expect(existsSync(moved)).toBe(true);
  });

  it("sweeps before it creates", async () => {
    const stale = await folder(`skillgym-improve.${deadPid()}.0-abc123`);
    const dir = await createTempRoot("improve", { parent });
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(dir)).toBe(true);
  });

  it("marks only a root made to be kept, saying why", async () => {
    const plain = await createTempRoot("run", { parent });
    expect(await readdir(plain)).toEqual([]);
    const kept = await createTempRoot("run", { parent, keep: true });
    expect(readFileSync(join(kept, ".skillgym-keep"), "utf8")).toBe("kept for inspection\n");
  });

  it("keeps the root of a live owner whose name records no start time", async () => {
    const own = await folder(`skillgym-run.${process.pid}.0-abc123`);
    expect(await sweepStaleTempRoots(parent)).toEqual([]);
    expect(existsSync(own)).toBe(true);
  });

  it("sweeps nothing in a folder that cannot be read", async () => {
    expect(await sweepStaleTempRoots(join(parent, "missing"))).toEqual([]);
  });
});
