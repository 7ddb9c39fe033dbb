import { InvalidArgumentError } from "commander";
import { describe, expect, it } from "vitest";
import {
  adaptiveRequest,
  agentList,
  agentName,
  agentsOf,
  outputLimitsOf,
} from "../../src/cli/agent-setup.js";
import {
  byteSize,
  fraction,
  idList,
  nonNegativeInt,
  positiveInt,
  positiveNumber,
  shardValue,
} from "../../src/cli/options.js";

// What each flag's value parser accepts and the one-line reason it gives for what it refuses.
const refusal = (parse: (value: string) => unknown, value: string): string => {
  try {
    parse(value);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidArgumentError);
    return (error as Error).message;
  }
  throw new Error(`${value} was accepted`);
};

describe("flag values", () => {
  it("takes whole numbers of 1 or more, or of 0 or more", () => {
    expect(positiveInt("1")).toBe(1);
    expect(positiveInt("12")).toBe(12);
    for (const bad of ["0", "-1", "1.5", "x", ""])
      expect(refusal(positiveInt, bad), bad).toBe("expected a whole number of 1 or more");
    expect(nonNegativeInt("0")).toBe(0);
    expect(nonNegativeInt("7")).toBe(7);
    for (const bad of ["-1", "0.5", "x"])
      expect(refusal(nonNegativeInt, bad), bad).toBe("expected a whole number of 0 or more");
  });

  it("takes a number above 0, and a fraction from 0 to 1 with both ends", () => {
    expect(positiveNumber("0.01")).toBe(0.01);
    expect(positiveNumber("5")).toBe(5);
    for (const bad of ["0", "-2", "Infinity", "x"])
      expect(refusal(positiveNumber, bad), bad).toBe("expected a number above 0");
    expect(fraction("0")).toBe(0);
    expect(fraction("1")).toBe(1);
    expect(fraction("0.25")).toBe(0.25);
    for (const bad of ["-0.1", "1.01", "NaN", "x"])
      expect(refusal(fraction, bad), bad).toBe("expected a number from 0 to 1");
  });

  it("takes a size in bytes, KB, MB or GB", () => {
    expect(byteSize("512")).toBe(512);
    expect(byteSize("2KB")).toBe(2048);
    expect(byteSize("50MB")).toBe(50 * 1024 ** 2);
    expect(byteSize("1GB")).toBe(1024 ** 3);
    expect(refusal(byteSize, "lots")).toBe("expected a size such as 200MB, 50MB or 1GB");
  });

  it("splits a comma-separated list, trimmed, leaving out empty entries", () => {
    expect(idList("a, b,,c ")).toEqual(["a", "b", "c"]);
    expect(idList("")).toEqual([]);
  });

  it("takes a shard i/n and refuses one outside 1..n with the shard's own reason", () => {
    expect(shardValue("2/3")).toEqual({ index: 2, count: 3 });
    expect(refusal(shardValue, "4/3")).toMatch(/4\/3/);
  });
});

describe("--agent", () => {
  it("takes one known agent, or an ACP command, and refuses a list or an unknown name", () => {
    expect(agentName("codex")).toBe("codex");
    expect(agentName("acp:goose acp")).toBe("acp:goose acp");
    expect(agentName("acp:goose acp --with a,b")).toBe("acp:goose acp --with a,b");
    expect(refusal(agentName, "codex,gemini")).toMatch(
      /^one agent here \(claude-code, codex, .*\); only `skillgym run` takes a comma-separated list$/,
    );
    expect(refusal(agentName, "goose")).toMatch(
      /^unknown agent "goose"; known agents: claude-code, .*, acp:<command…>$/,
    );
  });

  it("takes a list of known agents for run, each once, and names every unknown one", () => {
    expect(agentList("codex, gemini")).toBe("codex,gemini");
    expect(agentsOf({ agent: agentList("codex,gemini") })).toEqual(["codex", "gemini"]);
    expect(agentsOf({})).toEqual(["claude-code"]);
    expect(refusal(agentList, "goose,codex,duck")).toMatch(
      /^unknown agent "goose", "duck"; known agents: .* \(a comma-separated list runs each\)$/,
    );
    expect(refusal(agentList, "codex,gemini,codex")).toBe("codex named twice; name each agent once");
    expect(refusal(agentList, "codex,gemini,codex,gemini")).toBe(
      "codex, gemini named twice; name each agent once",
    );
  });
});

describe("what the eval flags ask the library for", () => {
  it("passes only the output limits given", () => {
    expect(outputLimitsOf({})).toStrictEqual({ outputLimits: {} });
    expect(outputLimitsOf({ maxOutput: 10, maxOutputFile: 5, maxOutputFiles: 2 })).toStrictEqual({
      outputLimits: { totalBytes: 10, fileBytes: 5, files: 2 },
    });
  });

  it("caps --adaptive at --max-runs, by default three times --runs", () => {
    const flags = { runs: 2, baseline: "without_skill", concurrency: 1, timeout: 1, effectFloor: 0.05 };
    expect(adaptiveRequest(flags)).toStrictEqual({});
    expect(adaptiveRequest({ ...flags, adaptive: true })).toStrictEqual({ adaptive: { maxRuns: 6 } });
    expect(adaptiveRequest({ ...flags, adaptive: true, maxRuns: 4 })).toStrictEqual({
      adaptive: { maxRuns: 4 },
    });
  });
});
