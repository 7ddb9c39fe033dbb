import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { storeRequest, withStoreOptions } from "../../src/cli/store-flags.js";

describe("storeRequest", () => {
  it("names the default judge: claude-code, or sim under --simulate", () => {
    expect(storeRequest({})).toEqual({ judge: "claude-code::" });
    expect(storeRequest({ simulate: true })).toEqual({ judge: "sim::" });
    expect(storeRequest({ simulate: false })).toEqual({ judge: "claude-code::" });
  });

  it("names the judge asked for with its model and base URL, so another judge's grading is not reused", () => {
    expect(
      storeRequest({
        judge: "anthropic",
        judgeModel: "claude-opus",
        judgeBaseUrl: "http://127.0.0.1:1",
        simulate: true,
      }),
    ).toEqual({ judge: "anthropic:claude-opus:http://127.0.0.1:1" });
  });

  it("takes the store --cache names, and --fresh", () => {
    expect(storeRequest({ cache: "/shared/cache", fresh: true })).toEqual({
      dir: "/shared/cache",
      fresh: true,
      judge: "claude-code::",
    });
    expect(storeRequest({ cache: "", fresh: false })).toEqual({ judge: "claude-code::" });
  });
});

describe("withStoreOptions", () => {
  it("adds --cache <dir> and --fresh", () => {
    const command = withStoreOptions(new Command("run")).exitOverride();
    command.parse(["--cache", "/c", "--fresh"], { from: "user" });
    expect(command.opts()).toEqual({ cache: "/c", fresh: true });
  });
});
