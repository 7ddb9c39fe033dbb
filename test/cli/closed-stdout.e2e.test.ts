import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { bin, root } from "./cli-process.js";

// The reader of stdout is gone before the command writes (`skillgym … | head` once head has exited).
function withClosedStdout(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

describe("a stdout whose reader went away", () => {
  it("ends the output quietly, not the command with an EPIPE crash", async () => {
    for (const args of [
      ["sim", "--help"],
      ["schema", "evals"],
    ]) {
      const { code, stderr } = await withClosedStdout(args);
      expect(stderr, args.join(" ")).not.toMatch(/EPIPE|Unhandled|Error:/);
      expect(code, args.join(" ")).toBe(0);
    }
  });
});
