// What `--project-root` costs a trigger run: the project is read once per command into a snapshot (copied and
// hashed), then every run's workspace is copied from that snapshot. Measured on a generated project of 10,000 files
// (plus ignored ones the copy leaves out), with the functions the trigger runs use.
//
// Every step starts on a synced disk, and a run's removal is timed on its own, with the sync that commits it. On ext4
// mounted with `discard` (this project's 2-core VM) a copy made right after a removal of 10,000 files is several times
// slower than one that is not, even after the sync: the freed blocks are still being discarded when the copy allocates.
// A trigger run's copy follows the removal of the run before it, so the per-run row is what runs pay there.
import { execFileSync } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { snapshotProject } from "../dist/triggers/conditions.js";
import { stageWorkspace } from "../dist/workspace/stage.js";
import { fmt, tempDir } from "./lib.mjs";
import { median, spread } from "./stats.mjs";

/** 10,000 files in 100 folders (sizes 200 B to 12 KB), a .gitignore'd build folder and node_modules beside them. */
async function writeProject(root, files) {
  const perFolder = 100;
  for (let f = 0; f < files / perFolder; f++) {
    const folder = join(root, "src", `module-${f}`);
    await mkdir(folder, { recursive: true });
    await Promise.all(
      Array.from({ length: perFolder }, (_, i) =>
        writeFile(join(folder, `file-${i}.ts`), `export const v${i} = ${f};\n`.repeat(8 + ((i * 37) % 400))),
      ),
    );
  }
  await writeFile(join(root, "package.json"), '{ "name": "bench-project" }\n');
  await writeFile(join(root, ".gitignore"), "generated/\n");
  for (const ignored of ["generated", "node_modules/dep"]) {
    await mkdir(join(root, ignored), { recursive: true });
    await Promise.all(
      Array.from({ length: 500 }, (_, i) =>
        writeFile(join(root, ignored, `x-${i}.js`), "ignored\n".repeat(50)),
      ),
    );
  }
}

// Flushes what earlier steps wrote or freed, so no step pays for the one before it.
const sync = () => execFileSync("sync");

async function removeSynced(folder) {
  const t = performance.now();
  await rm(folder, { recursive: true, force: true });
  sync();
  return performance.now() - t;
}

export async function projectCopy(log, settings) {
  const files = 10_000;
  const runs = settings.quick ? 2 : 5;
  const { dir, cleanup } = await tempDir();
  try {
    const project = join(dir, "project");
    const started = performance.now();
    await writeProject(project, files);
    const generateMs = performance.now() - started;
    const snapshots = [];
    let snapshot;
    for (let i = 0; i < (settings.quick ? 1 : 3); i++) {
      const into = join(dir, `snapshot-${i}`);
      sync();
      const t = performance.now();
      const made = await snapshotProject(project, [], into);
      snapshots.push(performance.now() - t);
      if (i === 0) snapshot = made;
      else await removeSynced(into);
    }
    const copies = [];
    const removals = [];
    for (let i = 0; i < runs; i++) {
      const workspace = join(dir, `run-${i}`);
      sync();
      const t = performance.now();
      await stageWorkspace({
        dir: workspace,
        projectRoot: snapshot.snapshot,
        skills: [],
        skillsFolder: ".claude/skills",
        fixtures: [],
      });
      copies.push(performance.now() - t);
      removals.push(await removeSynced(workspace));
    }
    log(`\n## project copy (--project-root) of ${files.toLocaleString("en")} files (median, min–max)\n`);
    log("| step | when | ms |");
    log("|---|---|---|");
    log(`| snapshot (copy + tree hash) | once per command | ${spread(snapshots, 0)} |`);
    log(`| workspace copy from the snapshot | every trigger run | ${spread(copies, 0)} |`);
    log(`| workspace removal (rm + sync) | every trigger run | ${spread(removals, 0)} |`);
    log(
      `\nproject generated in ${fmt(generateMs / 1000, 1)} s; a run pays ${fmt(median(copies) / 1000, 2)} s for the copy` +
        ` and ${fmt(median(removals) / 1000, 2)} s for its removal`,
    );
  } finally {
    await cleanup();
  }
}
