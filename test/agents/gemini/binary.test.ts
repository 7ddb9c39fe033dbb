import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INSTALL_COMMAND, locateGemini } from "../../../src/agents/gemini/binary.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "skillgym-gemini-bin-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("locateGemini", () => {
  it("without the package npm installed: gemini on PATH, else a hint naming both", async () => {
    const onPath = join(dir, "path", "gemini");
    await mkdir(join(onPath, ".."), { recursive: true });
    await writeFile(onPath, "#!/bin/sh\n", { mode: 0o755 });
    const none = async () => undefined;
    expect(await locateGemini(undefined, { PATH: join(onPath, "..") }, none)).toBe(onPath);
    await expect(locateGemini(undefined, { PATH: dir }, none)).rejects.toMatchObject({
      code: "AGENT_UNAVAILABLE",
      message: "Gemini CLI was not found",
      hint: `run \`${INSTALL_COMMAND}\`, put \`gemini\` on PATH, or pass --agent-bin`,
    });
    expect(INSTALL_COMMAND).toBe("npm install @google/gemini-cli");
  });
});
