// Seconds each slow test file took, for the order the tiers start their files in on a fresh clone
// (test/tiers/slow-first-sequencer.ts): only the order matters, so the figures need not be current, and a file not
// named here starts after these. Measured 2026-11-27 on the 2-core machine while other work kept the load at 15–38.

/** `npm run test:agents` (vitest.agents.config.ts). */
export const agentsTierSeconds: Readonly<Record<string, number>> = {
  "test/agents/conformance-opencode.agents.test.ts": 615,
  "test/agents/conformance-qwen-code.agents.test.ts": 383,
  "test/e2e/agents-opencode-copilot.agents.test.ts": 344,
  "test/e2e/agents-run.agents.test.ts": 255,
  "test/agents/conformance-copilot.agents.test.ts": 249,
  "test/agents/conformance-acp-gemini.agents.test.ts": 193,
  "test/agents/conformance-gemini.agents.test.ts": 180,
  "test/e2e/shards-agents.agents.test.ts": 178,
  "test/agents/conformance-claude-code.agents.test.ts": 160,
  "test/e2e/allowed-env.agents.test.ts": 133,
  "test/judge/agent-judge.agents.test.ts": 124,
  "test/triggers/conditions.agents.test.ts": 109,
  "test/store/agents.agents.test.ts": 92,
  "test/agents/acp-gemini-verdicts.agents.test.ts": 90,
  "test/e2e/triggers-gemini.agents.test.ts": 78,
  "test/judge/judge-cli.agents.test.ts": 77,
  "test/agents/opencode-prompt.agents.test.ts": 72,
  "test/triggers/replay/fidelity-replay-gemini.agents.test.ts": 70,
  "test/bench/models.agents.test.ts": 67,
  "test/agents/conformance-codex.agents.test.ts": 64,
  "test/pipeline/acp-rows.agents.test.ts": 62,
  "test/triggers/settled-progress.agents.test.ts": 57,
  "test/agents/gemini-policy.agents.test.ts": 50,
};

/**
 * The slowest files of `npm test` (vitest.config.ts; unit files too, since they share the one project), from vitest's
 * durations of a whole run on this machine, 2026-11-27 15:00 UTC under load; the five unit files after
 * merge-agents from their own runs at load 15–20, 2026-11-27 18:00 UTC.
 */
export const npmTestSeconds: Readonly<Record<string, number>> = {
  "test/optimize/resume.e2e.test.ts": 41,
  "test/report/viewer.e2e.test.ts": 38,
  "test/tune/tune.e2e.test.ts": 32,
  "test/tune/store.e2e.test.ts": 29,
  "test/e2e/triggers.e2e.test.ts": 27,
  "test/store/reuse.e2e.test.ts": 26,
  "test/triggers/replay/screen.test.ts": 25,
  "test/e2e/shards-interrupted.e2e.test.ts": 25,
  "test/e2e/shards.e2e.test.ts": 25,
  "test/catalog/catalog-store.e2e.test.ts": 24,
  "test/run/adaptive.e2e.test.ts": 24,
  "test/agents/acp/acp-double.e2e.test.ts": 23,
  "test/optimize/screen.e2e.test.ts": 21,
  "test/bench/model-rules.e2e.test.ts": 21,
  "test/report/over-time-history.e2e.test.ts": 21,
  "test/sim/run-number.e2e.test.ts": 20,
  "test/docs/runnable.e2e.test.ts": 19,
  "test/e2e/eval-runs.e2e.test.ts": 19,
  "test/report/large-workspace.e2e.test.ts": 19,
  "test/report/first-look.e2e.test.ts": 19,
  "test/triggers/side-by-side.e2e.test.ts": 18,
  "test/merge/merge-agents.test.ts": 18,
  "test/catalog/run-catalog.test.ts": 20,
  "test/agents/acp/session.test.ts": 18,
  "test/tune/run-tune.test.ts": 14,
  "test/agents/acp/probe.test.ts": 9,
  "test/tune/execute.test.ts": 8,
  "test/e2e/output-limits.e2e.test.ts": 18,
};
