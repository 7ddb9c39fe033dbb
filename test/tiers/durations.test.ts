import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { agentsTierSeconds, npmTestSeconds } from "./durations.js";

const root = join(import.meta.dirname, "..", "..");

describe("the tiers' expected durations", () => {
  it.each([
    ["agents", agentsTierSeconds, /\.agents\.test\.ts$/],
    ["npm test", npmTestSeconds, /^(?!.*\.(agents|sandbox)\.test\.ts$).*\.test\.ts$/],
  ] as const)("name only files of the %s tier that exist", (_tier, seconds, pattern) => {
    const files = Object.keys(seconds);
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((file) => !pattern.test(file) || !existsSync(join(root, file)))).toEqual([]);
    expect(Object.values(seconds).every((s) => s > 0)).toBe(true);
  });
});
