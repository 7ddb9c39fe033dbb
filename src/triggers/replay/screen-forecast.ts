/** What `--dry-run` says a screened command would cost instead of an agent process per run. */
export interface ScreenForecast {
  kind: "replay";
  /** One capture run of the real agent per key (conditions, description), unless the store holds it. */
  capture_runs: number;
  /** One replayed request per screened run to make. */
  replay_requests: number;
  /** At most: the screened runs replay leaves undecided, plus the runs that are not screened. */
  agent_runs_up_to: number;
}

/**
 * The forecast of `runs` runs to make, `screened` of them screened by replay, behind `keys` captures: every screened
 * run costs a replayed request and may still need the agent; the unscreened ones need the agent.
 */
export function screenForecast(input: { runs: number; screened?: number; keys: number }): ScreenForecast {
  const screened = Math.min(input.screened ?? input.runs, input.runs);
  return {
    kind: "replay",
    capture_runs: screened > 0 ? input.keys : 0,
    replay_requests: screened,
    agent_runs_up_to: input.runs,
  };
}
