import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../e2e/helpers.js";
import { cli, openServers } from "./command-fixture.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterAll(() => cleanup());

const refused = (value: string, why: string) => ({
  code: 2,
  stdout: "",
  stderr: `error: option '--judge <list>' argument '${value}' is invalid. ${why}\n(see \`skillgym judges --help\`)\n`,
});

describe("skillgym judges --judge", () => {
  it("needs at least one judge", async () => {
    expect(await cli(["judges", dir, "--judge", ""])).toEqual(refused("", "name at least one judge"));
    expect(await cli(["judges", dir, "--judge", ","])).toEqual(refused(",", "name at least one judge"));
  });

  it("names every problem of the list", async () => {
    const backends = "claude-code, codex, gemini, opencode, copilot, anthropic, openai, sim";
    expect(await cli(["judges", dir, "--judge", "nope"])).toEqual(
      refused("nope", `unknown judge "nope" in "nope"; expected one of ${backends}`),
    );
    expect(await cli(["judges", dir, "--judge", "sim:,nope"])).toEqual(
      refused(
        "sim:,nope",
        `"sim:" names no model after the colon; unknown judge "nope" in "nope"; expected one of ${backends}`,
      ),
    );
  });
});

describe("skillgym judges with sim judges", () => {
  it("closes the simulator it started when the iteration cannot be read", async () => {
    const servers = openServers();
    const missing = join(dir, "iteration-9");
    const result = await cli(["judges", missing, "--judge", "sim,sim:strict"]);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr:
        `skillgym: ${missing} does not exist\n` +
        "  fix: pass an iteration folder written by `skillgym eval`, such as <skill>-workspace/iteration-1\n",
    });
    for (let waited = 0; openServers() > servers && waited < 2000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(openServers()).toBe(servers);
  });
});
