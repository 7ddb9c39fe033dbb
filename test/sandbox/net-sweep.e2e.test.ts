import { spawn } from "node:child_process";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { pidNamespace } from "../../src/owned-temp.js";
import { sweepStaleTempRoots } from "../../src/workspace/temp-root.js";
import { root } from "../cli/cli-process.js";
import { tempDir } from "../e2e/helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(async () => {
  await cleanup();
});

// A skillgym process (the built one) that wraps a command in its sandbox, says so and waits, never closing it.
const OWNER = `
const { sandboxCommand } = await import(${JSON.stringify(join(root, "dist", "sandbox", "index.js"))});
const cwd = process.cwd();
await sandboxCommand({ command: "/bin/true", args: [], env: {}, cwd, home: cwd }, { bwrap: "/usr/bin/bwrap", network: { kind: "simulator", url: "http://127.0.0.1:9" } });
process.stdout.write("ready\\n");
setInterval(() => {}, 1000);
`;

const netFolders = async () => (await readdir(dir)).filter((name) => name.startsWith("skillgym-net"));

describe("the sandbox's network folders", () => {
  it("are named after their owner, kept while it lives and swept once it was killed with SIGKILL", async () => {
    const owner = spawn(process.execPath, ["--input-type=module", "-e", OWNER], {
      cwd: dir,
      env: { ...process.env, TMPDIR: dir },
      stdio: ["ignore", "pipe", "inherit"],
    });
    await new Promise<void>((ready) => owner.stdout.once("data", () => ready()));
    const [folder] = await netFolders();
    expect(folder).toMatch(
      new RegExp(`^skillgym-net\\.${owner.pid}\\.\\d+\\.${pidNamespace()}-[A-Za-z0-9]{6}$`),
    );
    expect(await readdir(join(dir, folder ?? ""))).toEqual(["net.sock"]);

    expect(await sweepStaleTempRoots(dir)).toEqual([]);
    owner.kill("SIGKILL");
    await new Promise((exited) => owner.once("exit", exited));
    expect(await netFolders()).toEqual([folder]);
    expect(await sweepStaleTempRoots(dir)).toEqual([join(dir, folder ?? "")]);
    expect(await netFolders()).toEqual([]);
  });
});
