import { readHead } from "../runlog/output-files.js";
import type { TranscriptView } from "./view-model.js";

// Cut at the last whole line that fits, so no character or line is split; a missing file is no transcript.
export async function readTranscript(file: string, maxBytes: number): Promise<TranscriptView | null> {
  const read = await readHead(file, maxBytes).catch(() => undefined);
  if (!read) return null;
  const { head, size } = read;
  if (size <= head.length) return { text: new TextDecoder("utf-8").decode(head), size, truncated: false };
  const lastBreak = head.lastIndexOf(0x0a);
  const kept = lastBreak > 0 ? head.subarray(0, lastBreak + 1) : head;
  return { text: new TextDecoder("utf-8").decode(kept), size, truncated: true };
}
