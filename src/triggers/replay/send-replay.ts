import type { ReplayCapture } from "../../contracts/replay-capture.js";
import { REPLAY_HEADER, type ReplayAdapter } from "./adapter.js";
import type { FirstTurn } from "./first-turn.js";
import { withQuery } from "./marker.js";

export interface ReplayTarget {
  adapter: ReplayAdapter;
  capture: ReplayCapture;
  /** The base URL the agent sends to: the simulator's, or the provider's API. */
  baseUrl: string;
  apiKey: string;
  signal?: AbortSignal;
}

export class ReplayRequestError extends Error {}

/** The captured request sent straight to the API with `query` in the marker's place; the answer's first turn. */
export async function replayQuery(
  target: ReplayTarget,
  query: string,
  runNumber: number,
): Promise<FirstTurn> {
  const { capture, adapter } = target;
  const response = await fetch(`${target.baseUrl.replace(/\/$/, "")}${capture.path}`, {
    method: capture.method,
    headers: {
      ...capture.headers,
      ...adapter.replayHeaders(target.apiKey),
      [REPLAY_HEADER]: `run-${runNumber}`,
    },
    body: withQuery(capture.body, capture.marker, query),
    ...(target.signal ? { signal: target.signal } : {}),
  });
  const text = await response.text();
  if (!response.ok) throw new ReplayRequestError(`replay answered ${response.status}: ${text.slice(0, 200)}`);
  return adapter.readTurn(response.headers.get("content-type") ?? "", text);
}
