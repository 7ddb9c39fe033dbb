import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { captureIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { skillMd, tempDir, writeTree } from "../e2e/helpers.js";

// `skillgym tune` on a terminal asks for a preset (and for two skills, a mode) before it starts; these skills have
// no evals.json, so the tune stops right after.

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeTree(dir, {
    "greeter/SKILL.md": skillMd("greeter", "Writes greeting cards. Use when asked for a card.", "Body."),
    "sender/SKILL.md": skillMd("sender", "Sends greeting cards. Use when asked to send a card.", "Body."),
  });
});
afterAll(() => cleanup());

const stdin = Object.getOwnPropertyDescriptor(process, "stdin") as PropertyDescriptor;
let input: PassThrough & { isTTY?: boolean };
let prompted: string;
beforeEach(() => {
  input = new PassThrough();
  input.isTTY = true;
  prompted = "";
  Object.defineProperty(process, "stdin", { value: input, configurable: true });
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    prompted += String(chunk);
    return true;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  Object.defineProperty(process, "stdin", stdin);
});

// `skillgym tune <args>` with stdout a terminal, the user typing each of `answers` when asked.
async function tune(args: string[], answers: string[], terminal = true) {
  const io = { ...captureIo(), isTTY: terminal };
  const typing = (async () => {
    for (const answer of answers) {
      while (!prompted.endsWith("]: ")) await new Promise((resolve) => setTimeout(resolve, 5));
      prompted += "\n";
      input.write(`${answer}\n`);
    }
  })();
  const code = await main(["tune", ...args, "--simulate"], io);
  await typing;
  return { code, stderr: io.stderr(), prompted };
}

const presetQuestion =
  "Tune preset:\n  1) quick (3 iterations, 70)\n  2) standard (5 iterations, 80)\n  3) thorough (8 iterations, 90)\n";

const modeQuestion =
  "Tune mode:\n  1) single: tune each skill on its own\n  2) chain: each skill's outputs feed the next\n";
const noEvals = (skill: string) =>
  `skillgym: no evals.json found for skill "${skill}"\n` +
  `  fix: put one in ${join(dir, skill)}/evals/, in <project>/evals/${skill}/, or pass --evals PATH (searched: --evals, <skill>/evals/, <skill>/../../evals/<name>/, <project-root>/evals/<name>/, <project-root>/evals/**/<name>/)\n`;

describe("skillgym tune on a terminal", () => {
  it("asks for a preset, standard by default, before it starts", async () => {
    expect(await tune([join(dir, "greeter")], ["1"])).toEqual({
      code: 2,
      stderr: presetQuestion + noEvals("greeter"),
      prompted: "choose 1-3 [2]: \n",
    });
  });

  it("asks for a mode for several skills", async () => {
    const greeter = join(dir, "greeter");
    expect(await tune([`${greeter},${greeter}`], ["", "1"])).toEqual({
      code: 2,
      stderr: presetQuestion + modeQuestion + noEvals("greeter"),
      prompted: "choose 1-3 [2]: \nchoose 1-2 [1]: \n",
    });
  });

  it("tunes several skills as a chain when the chain is chosen", async () => {
    const greeter = join(dir, "greeter");
    // A chain names each skill once: refused before anything runs (as single tunes, each would run).
    expect(
      await tune([`${greeter},${greeter}`, "--scenario", "Make a card", "--max-iterations", "1"], ["2"]),
    ).toEqual({
      code: 2,
      stderr: `${modeQuestion}skillgym: the skill "greeter" is named twice\n`,
      prompted: "choose 1-2 [1]: \n",
    });
  });

  it("asks for no mode with --chain, and no preset when the iterations or the threshold are given", async () => {
    const greeter = join(dir, "greeter");
    expect(await tune([`${greeter},${greeter}`, "--chain", "--max-iterations", "2"], [])).toEqual({
      code: 2,
      stderr: noEvals("greeter"),
      prompted: "",
    });
    expect(await tune([greeter, "--threshold", "75"], [])).toEqual({
      code: 2,
      stderr: noEvals("greeter"),
      prompted: "",
    });
    expect(await tune([greeter, "--preset", "quick"], [])).toEqual({
      code: 2,
      stderr: noEvals("greeter"),
      prompted: "",
    });
  });

  it("asks nothing with -y, with --json, or when stdout or stdin is not a terminal", async () => {
    const greeter = join(dir, "greeter");
    const silent = { code: 2, stderr: noEvals("greeter"), prompted: "" };
    expect(await tune([greeter, "-y"], [])).toEqual(silent);
    expect(await tune([greeter, "--json"], [])).toEqual(silent);
    expect(await tune([greeter], [], false)).toEqual(silent);
    input.isTTY = false;
    expect(await tune([greeter], [])).toEqual(silent);
  });

  it("asks nothing when resuming", async () => {
    const result = await tune(["--resume", join(dir, "no-such-tune")], []);
    expect(result.code).toBe(2);
    expect(result.stderr).not.toContain("Tune preset:");
    expect(result.prompted).toBe("");
  });
});
