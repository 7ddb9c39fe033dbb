import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { captureIo } from "../../src/cli/io.js";
import { mainOnDouble } from "../agent-double/index.js";
import { tempDir, writeTree } from "../e2e/helpers.js";
import { skillMd } from "./tune-helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

describe("skillgym tune progress", () => {
  it("counts each iteration's runs against that iteration's total, never past it", async () => {
    await writeTree(dir, {
      "greeter/SKILL.md": skillMd(
        "greeter",
        "Writes greeting cards. Use when asked for a greeting card.",
        "Write card.txt.",
      ),
      "greeter/evals/evals.json": JSON.stringify({
        evals: [
          {
            id: 1,
            prompt: "Please make a greeting card for Ada",
            expectations: [],
            checks: [{ type: "file_contains", path: "card.txt", pattern: "Ada" }],
          },
        ],
      }),
    });
    const script = join(dir, "sim-script.json");
    // The card misses Ada, so the score stays low and the tune goes on to a second iteration.
    await writeFile(
      script,
      JSON.stringify({
        rules: [
          {
            match: "tune iteration 1\\b",
            skill: "none",
            without_skill: [
              { read: "greeter/SKILL.md" },
              {
                write: {
                  path: "greeter/SKILL.md",
                  content: skillMd(
                    "greeter",
                    "Writes greeting cards. Use when asked for a greeting card.",
                    "V1.",
                  ),
                },
              },
            ],
          },
          { match: "greeting card", steps: [{ write: { path: "card.txt", content: "Hello!\n" } }] },
        ],
      }),
    );
    const io = captureIo();
    const code = await mainOnDouble(
      [
        "tune",
        join(dir, "greeter"),
        "-y",
        "--runs",
        "3",
        "--max-iterations",
        "2",
        "--workspace",
        join(dir, "ws"),
        "--simulate",
        "--sim-script",
        script,
      ],
      io,
    );
    expect(code, io.stderr()).toBe(0);
    const counters = [...io.stderr().matchAll(/^\[(\d+)\/(\d+)\]/gm)].map((m) => [
      Number(m[1]),
      Number(m[2]),
    ]);
    expect(io.stderr()).toContain("iteration 2/2");
    expect(counters).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
  });
});
