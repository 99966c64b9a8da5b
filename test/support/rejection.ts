/** @returns the error `promise` rejects with; fails the test when it resolves */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => null,
    (error: unknown) => error as Error,
  );
  if (outcome === null) throw new Error('accepted');
  return outcome;
}
