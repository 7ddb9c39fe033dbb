import { describe, expect, it } from "vitest";
import { screenNote, screenPlanLine } from "../../../src/cli/reporters/screen-line.js";

describe("screenNote", () => {
  it("says nothing without --screen", () => {
    expect(screenNote({})).toBeUndefined();
  });

  it("says how many runs replay and the agent decided", () => {
    expect(screenNote({ screen: { kind: "replay", decided_by_replay: 7, decided_by_agent: 5 } })).toBe(
      "replay decided 7 of 12 trigger runs, the agent 5",
    );
    expect(
      screenNote(
        { screen: { kind: "replay", decided_by_replay: 7, decided_by_agent: 5, captured: false } },
        "catalog runs",
      ),
    ).toBe("replay decided 7 of 12 catalog runs, the agent 5");
  });

  it("says the capture, why replay went off, and what the check against the agent found", () => {
    expect(
      screenNote({
        screen: {
          kind: "replay",
          decided_by_replay: 8,
          decided_by_agent: 4,
          captured: true,
          off: "no API key",
          verified: { runs: 8, agreed: 7, agreement: 0.875, fell_back: true },
        },
      }),
    ).toBe(
      "replay decided 8 of 12 trigger runs, the agent 4; first request captured; replay off: no API key; " +
        "checked 8 against the agent: 7 agreed (88%), below 95%: the agents made the replayed runs again",
    );
    expect(
      screenNote({
        screen: {
          kind: "replay",
          decided_by_replay: 8,
          decided_by_agent: 4,
          verified: { runs: 8, agreed: 8, fell_back: false },
        },
      }),
    ).toBe("replay decided 8 of 12 trigger runs, the agent 4; checked 8 against the agent: 8 agreed (0%)");
    expect(
      screenNote({
        screen: {
          kind: "replay",
          decided_by_replay: 0,
          decided_by_agent: 4,
          verified: { runs: 0, agreed: 0, fell_back: false },
        },
      }),
    ).toBe("replay decided 0 of 4 trigger runs, the agent 4; no replayed run was checked against the agent");
  });
});

describe("screenPlanLine", () => {
  it("counts the capture runs, singular and plural", () => {
    expect(
      screenPlanLine({ kind: "replay", capture_runs: 1, replay_requests: 20, agent_runs_up_to: 6 }),
    ).toBe(
      "with --screen replay: 1 capture run (one per key, unless stored), 20 replay requests, up to 6 agent runs (those replay leaves undecided)",
    );
    expect(
      screenPlanLine({ kind: "replay", capture_runs: 0, replay_requests: 20, agent_runs_up_to: 6 }),
    ).toBe(
      "with --screen replay: 0 capture runs (one per key, unless stored), 20 replay requests, up to 6 agent runs (those replay leaves undecided)",
    );
  });
});
