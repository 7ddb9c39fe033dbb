import { open, readdir } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { contentTypeOf, kindFromName, looksLikeText } from "./file-kinds.js";
import type { OutputFile } from "./view-model.js";

export interface OutputLimits {
  /** Text shown inline per file; the rest is behind the download link. */
  maxTextBytes: number;
  /** Files listed per run. */
  maxFiles: number;
  /** In a static file: the largest image or download embedded as a data: URL. */
  maxEmbedBytes: number;
  /** Of a run's transcript.md, shown per run; the rest is left out with a note. */
  maxTranscriptBytes: number;
}

export const defaultLimits: OutputLimits = {
  maxTextBytes: 200_000,
  maxFiles: 200,
  maxEmbedBytes: 2_000_000,
  maxTranscriptBytes: 256_000,
};

export interface OutputSource {
  /** The URL the page fetches a file from, given its path under the workspace root; absent to embed files instead. */
  urlFor?: (pathFromRoot: string) => string;
  root: string;
  limits?: Partial<OutputLimits>;
}

interface Found {
  absolute: string;
  path: string;
}

// Regular files only: a symlink an agent left in outputs/ could point anywhere on the machine.
async function walk(dir: string, base: string, found: Found[], limit: number): Promise<number> {
  let omitted = 0;
  let entries: import("node:fs").Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  entries.sort((a, b) => a.name.localeCompare(b.name, "en", { numeric: true }));
  for (const entry of entries) {
    const absolute = join(dir, entry.name);
    if (entry.isDirectory()) omitted += await walk(absolute, base, found, limit);
    else if (entry.isFile()) {
      const path = relative(base, absolute).split(sep).join("/");
      if (path === "metrics.json") continue;
      if (found.length >= limit) omitted++;
      else found.push({ absolute, path });
    }
  }
  return omitted;
}

export async function readHead(file: string, bytes: number): Promise<{ head: Buffer; size: number }> {
  const handle = await open(file, "r");
  try {
    const size = (await handle.stat()).size;
    const buffer = Buffer.alloc(Math.min(bytes, size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return { head: buffer.subarray(0, bytesRead), size };
  } finally {
    await handle.close();
  }
}

function dataUrl(type: string, bytes: Buffer): string {
  return `data:${type};base64,${bytes.toString("base64")}`;
}

async function describe(found: Found, source: OutputSource, limits: OutputLimits): Promise<OutputFile> {
  const fromRoot = relative(source.root, found.absolute).split(sep).join("/");
  const named = kindFromName(found.path);
  const textual = named !== "image" && named !== "binary";
  const { head, size } = await readHead(found.absolute, textual ? Math.max(limits.maxTextBytes, 8192) : 0);
  const kind = named ?? (looksLikeText(head.subarray(0, 8192)) ? "text" : "binary");
  const file: OutputFile = { path: found.path, size, kind };
  if (kind !== "image" && kind !== "binary") {
    const shown = head.subarray(0, limits.maxTextBytes);
    file.text = new TextDecoder("utf-8").decode(shown);
    if (size > shown.length) file.truncated = true;
  }
  if (source.urlFor) file.url = source.urlFor(fromRoot);
  else if ((kind === "image" || kind === "binary") && size <= limits.maxEmbedBytes) {
    const type =
      kind === "image"
        ? (contentTypeOf(found.path) ?? "application/octet-stream")
        : "application/octet-stream";
    file.url = dataUrl(type, (await readHead(found.absolute, size)).head);
  }
  return file;
}

/** The files a run produced (its outputs/ folder, without metrics.json), each with what the page needs to show it. */
export async function readOutputs(
  outputsDir: string,
  source: OutputSource,
): Promise<{ files: OutputFile[]; omitted: number }> {
  const limits = { ...defaultLimits, ...source.limits };
  const found: Found[] = [];
  const omitted = await walk(outputsDir, outputsDir, found, limits.maxFiles);
  const files = await Promise.all(found.map((f) => describe(f, source, limits).catch(() => undefined)));
  return { files: files.filter((f): f is OutputFile => f !== undefined), omitted };
}
