import { describe, expect, it } from "vitest";
import { optimizeScreen } from "../../src/optimize/screen.js";

// optimize's screen of its train runs: replay asked for, turned off, or the default (on when replay is possible).
const claude = { name: "claude-code", simulated: false, sandboxed: false };
const replay = { kind: "replay" as const };

describe("optimizeScreen", () => {
  it("is on by default under the simulator, or with the provider's API key", () => {
    expect(optimizeScreen(undefined, { ...claude, simulated: true })).toEqual({
      screen: { kind: "replay" },
      setting: { kind: "replay", asked: false },
    });
    const withKey = { kind: "replay" as const, env: { ANTHROPIC_API_KEY: "sk-test" } };
    expect(optimizeScreen({ mode: "default", screen: withKey }, claude).screen).toEqual(withKey);
  });

  it("turns itself off by default, saying why: no API key, an agent without replay", () => {
    expect(optimizeScreen({ mode: "default", screen: { ...replay, env: {} } }, claude)).toEqual({
      setting: {
        kind: "none",
        asked: false,
        off: "no API key (ANTHROPIC_API_KEY) for replay to send requests with",
      },
    });
    expect(
      optimizeScreen({ mode: "default", screen: replay }, { ...claude, name: "opencode", simulated: true })
        .setting,
    ).toEqual({ kind: "none", asked: false, off: "opencode has no replay yet" });
    // Under the sandbox too: the capture's one network target is the recording proxy.
    expect(
      optimizeScreen({ mode: "default", screen: replay }, { ...claude, simulated: true, sandboxed: true })
        .setting,
    ).toEqual({ kind: "replay", asked: false });
  });

  it("refuses an agent without replay when replay is asked for, and is off with --screen none", () => {
    expect(() =>
      optimizeScreen({ mode: "replay", screen: replay }, { ...claude, name: "opencode", simulated: true }),
    ).toThrow(/--screen replay is not available with opencode yet/);
    expect(optimizeScreen({ mode: "none" }, { ...claude, simulated: true })).toEqual({
      setting: { kind: "none", asked: true, off: "--screen none" },
    });
    // Asked for without a key: replay is on, and screenedHooks says the key is missing and lets the agents run.
    expect(optimizeScreen({ mode: "replay", screen: { ...replay, env: {} } }, claude).setting).toEqual({
      kind: "replay",
      asked: true,
    });
  });
});
