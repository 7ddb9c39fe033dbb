export { agentsWithReplay, replayAdapterFor } from "./adapters.js";
export { type ReplayPossible, replayPossible } from "./possible.js";
export { screenRefused } from "./refuse.js";
export type { ScreenOptions } from "./replayer.js";
export { type ScreenSummary, screenedHooks } from "./screen.js";
export { type ScreenForecast, screenForecast } from "./screen-forecast.js";
export {
  type DecidedVerdict,
  REPLAYS_PER_AGENT_SLOT,
  type ScreenedKind,
  screenRuns,
} from "./screen-runs.js";
