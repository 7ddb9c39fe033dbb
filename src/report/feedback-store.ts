import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Feedback, type GradeMark, type Review } from "../contracts/feedback.js";
import { writeJson } from "../runlog/atomic-write.js";
import { type FileLockOptions, FileLockTimeout, withFileLock } from "./file-lock.js";
import type { FeedbackView } from "./view-model.js";

/** feedback.json exists but cannot be read: saving would destroy it, so nothing is saved. */
export class FeedbackFileError extends Error {
  override readonly name = "FeedbackFileError";
}

export interface FeedbackChange {
  run_id?: string;
  feedback?: string;
  /** A grade of `run_id`'s marked right or wrong; a null verdict takes the mark back. */
  grade?: { text: string; verdict: GradeMark["verdict"] | null };
  status?: string;
}

type Read = { state: "ok"; value: Feedback } | { state: "missing" } | { state: "broken"; problem: string };

async function readFeedbackFile(file: string): Promise<Read> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return { state: "missing" };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { state: "broken", problem: `${file}: not valid JSON (${(error as Error).message})` };
  }
  const parsed = Feedback.safeParse(raw);
  if (parsed.success) return { state: "ok", value: parsed.data };
  const issue = parsed.error.issues[0];
  return { state: "broken", problem: `${file} at ${issue?.path.join(".") || "(top)"}: ${issue?.message}` };
}

export async function readFeedbackView(iterationDir: string): Promise<FeedbackView> {
  const read = await readFeedbackFile(join(iterationDir, "feedback.json"));
  if (read.state === "missing") return { reviews: {}, status: null, problem: null };
  if (read.state === "broken") return { reviews: {}, status: null, problem: read.problem };
  return {
    reviews: Object.fromEntries(
      read.value.reviews.map((r) => [
        r.run_id,
        { feedback: r.feedback, timestamp: r.timestamp, ...(r.grades ? { grades: r.grades } : {}) },
      ]),
    ),
    status: read.value.status ?? null,
    problem: null,
  };
}

/**
 * Applies one change to feedback.json, keeping reviews of other runs and fields other tools wrote. The file is
 * re-read and written under a lock shared across processes, so a change that resolves is on disk.
 */
export async function updateFeedback(
  iterationDir: string,
  change: FeedbackChange,
  now: Date = new Date(),
  lock: FileLockOptions = {},
): Promise<Feedback> {
  const file = join(iterationDir, "feedback.json");
  try {
    return await withFileLock(file, () => applyChange(file, change, now), lock);
  } catch (error) {
    if (error instanceof FileLockTimeout) throw new FeedbackFileError(error.message);
    throw error;
  }
}

async function applyChange(file: string, change: FeedbackChange, now: Date): Promise<Feedback> {
  const read = await readFeedbackFile(file);
  if (read.state === "broken")
    throw new FeedbackFileError(`${read.problem}; fix or remove it to save feedback`);
  const current: Feedback = read.state === "ok" ? read.value : { reviews: [] };
  let reviews = current.reviews;
  if (change.run_id !== undefined && (change.feedback !== undefined || change.grade !== undefined)) {
    const runId = change.run_id;
    const before = reviews.find((r) => r.run_id === runId);
    const fresh: Review = {
      run_id: runId,
      feedback: "",
      // Stryker disable next-line StringLiteral: equivalent, editReview stamps the time
      timestamp: "",
    };
    const edited = editReview(before ?? fresh, change, now);
    // A review with neither text nor marked grades is no review.
    const empty = edited.feedback.trim() === "" && !edited.grades?.length;
    if (empty) reviews = reviews.filter((r) => r.run_id !== runId);
    else if (before) reviews = reviews.map((r) => (r.run_id === runId ? edited : r));
    else reviews = [...reviews, edited];
  }
  const status = change.status ?? current.status ?? "in_progress";
  const next: Feedback = { ...current, reviews, status };
  await writeJson(file, next);
  return next;
}

function editReview(review: Review, change: FeedbackChange, now: Date): Review {
  const next: Review = { ...review, timestamp: now.toISOString() };
  if (change.feedback !== undefined) next.feedback = change.feedback;
  if (change.grade) {
    const { text, verdict } = change.grade;
    const others = (review.grades ?? []).filter((g) => g.text !== text);
    const grades = verdict === null ? others : [...others, { text, verdict }];
    if (grades.length > 0) next.grades = grades;
    else delete next.grades;
  }
  return next;
}
