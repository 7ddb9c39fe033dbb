import type { TriggerResults } from "../../contracts/trigger-results.js";
import type { ScreenForecast } from "../../triggers/replay/index.js";

/** `--screen replay`: how the runs were decided, and what the check against the agent found. */
export function screenNote(
  results: Pick<TriggerResults, "screen">,
  what = "trigger runs",
): string | undefined {
  const screen = results.screen;
  if (!screen) return undefined;
  const total = screen.decided_by_replay + screen.decided_by_agent;
  const parts = [
    `replay decided ${screen.decided_by_replay} of ${total} ${what}, the agent ${screen.decided_by_agent}`,
  ];
  if (screen.captured === true) parts.push("first request captured");
  if (screen.off) parts.push(`replay off: ${screen.off}`);
  const verified = screen.verified;
  if (verified)
    parts.push(
      verified.runs === 0
        ? "no replayed run was checked against the agent"
        : `checked ${verified.runs} against the agent: ${verified.agreed} agreed (${Math.round((verified.agreement ?? 0) * 100)}%)${verified.fell_back ? ", below 95%: the agents made the replayed runs again" : ""}`,
    );
  return parts.join("; ");
}

/** `--dry-run` with `--screen replay`: the capture runs, the replayed requests and the agent runs at most. */
export function screenPlanLine(forecast: ScreenForecast): string {
  return (
    `with --screen replay: ${forecast.capture_runs} capture run${forecast.capture_runs === 1 ? "" : "s"} (one per key, unless stored), ` +
    `${forecast.replay_requests} replay requests, up to ${forecast.agent_runs_up_to} agent runs (those replay leaves undecided)`
  );
}
