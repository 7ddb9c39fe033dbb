import { describe, expect, it } from "vitest";
import { currentDescriptionBlock, trainFailuresBlock } from "../../src/contracts/describer-protocol.js";
import { judgeMarkers } from "../../src/contracts/judge-markers.js";
import { judgeAnswer } from "../../src/sim/index.js";

function improved(description: string, missed: string[], falseTriggers: string[] = []): string {
  const failures = [
    ...missed.map((query) => ({ query, should_trigger: true, trigger_rate: 0 })),
    ...falseTriggers.map((query) => ({ query, should_trigger: false, trigger_rate: 1 })),
  ];
  const text = [
    judgeMarkers.describer,
    currentDescriptionBlock(description),
    trainFailuresBlock(failures),
  ].join("\n");
  const answer = judgeAnswer(text, undefined);
  expect(answer?.kind).toBe("describer");
  return answer?.text ?? "";
}

describe("the sim describer", () => {
  it("starts a new sentence after a description that ends without a full stop, and none after one that has it", () => {
    expect(improved("Formats documents", ["export invoices"])).toBe(
      "Formats documents. Use when the user asks about export, invoices.",
    );
    expect(improved("Formats documents!", ["export invoices"])).toBe(
      "Formats documents! Use when the user asks about export, invoices.",
    );
    expect(improved("  ", ["export invoices"])).toBe("Use when the user asks about export, invoices.");
    expect(improved("Reads v1.2 files", ["export invoices"])).toBe(
      "Reads v1.2 files. Use when the user asks about export, invoices.",
    );
  });

  it("proposes the sentence alone when the prompt gives no current description", () => {
    const text = [
      judgeMarkers.describer,
      trainFailuresBlock([{ query: "export invoices", should_trigger: true, trigger_rate: 0 }]),
    ].join("\n");
    expect(judgeAnswer(text, undefined)?.text).toBe("Use when the user asks about export, invoices.");
  });

  it("adds each missed word once, and none the description already has", () => {
    expect(improved("Exports documents.", ["export invoices", "Invoices export quickly"])).toBe(
      "Exports documents. Use when the user asks about invoices, quickly.",
    );
  });

  it("answers the description unchanged, or a placeholder for none, when no should-trigger query was missed", () => {
    expect(improved("Formats documents.", [], ["export invoices"])).toBe("Formats documents.");
    expect(improved("", [])).toBe("Simulated description (skillgym sim).");
    expect(improved("Formats documents.", ["the of and"])).toBe("Formats documents.");
  });

  it("drops the last words until the description fits 1024 characters, exactly at the limit included", () => {
    const prefix = "Use when the user asks about alpha, bravo.";
    const fits = "x".repeat(1024 - prefix.length - 2);
    expect(improved(`${fits}.`, ["alpha bravo"])).toBe(`${fits}. ${prefix}`);
    const over = "y".repeat(1024 - prefix.length - 1);
    expect(improved(`${over}.`, ["alpha bravo"])).toBe(`${over}. Use when the user asks about alpha.`);
  });
});
