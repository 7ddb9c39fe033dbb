import { expect } from "vitest";
import { JudgeError } from "../../src/judge/judge.js";

/** The error a promise rejects with, asserted to be one (a promise that resolves fails the test). */
export async function failure(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

/** The JudgeError a promise rejects with. */
export async function judgeError(promise: Promise<unknown>): Promise<JudgeError> {
  const error = await failure(promise);
  expect(error).toBeInstanceOf(JudgeError);
  return error as JudgeError;
}
