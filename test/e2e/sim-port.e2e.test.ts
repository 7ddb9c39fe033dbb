import { spawnSync } from "node:child_process";
import { createServer, type Server } from "node:net";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const bin = join(root, "bin", "skillgym.js");

let holder: Server;
let port: number;
beforeEach(async () => {
  holder = createServer();
  await new Promise<void>((r) => holder.listen(0, "127.0.0.1", r));
  port = (holder.address() as { port: number }).port;
});
afterEach(() => new Promise<void>((r) => holder.close(() => r())));

describe("skillgym sim --port", () => {
  it("names a taken port in one clear line and exits 2, without a stack trace", () => {
    const result = spawnSync(process.execPath, [bin, "sim", "--port", String(port)], {
      cwd: root,
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`skillgym: port ${port} on 127.0.0.1 is taken by another process`);
    expect(result.stderr).toContain("--port");
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(result.stderr).not.toContain("unexpected failure");
    expect(result.stdout).toBe("");
  });
});
