export { agentsWithReplay, replayAdapterFor } from "./adapters.js";
export { screenRefused } from "./refuse.js";
export { type ScreenOptions, type ScreenSummary, screenedHooks } from "./screen.js";
