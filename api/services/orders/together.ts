/**
 * Statements of one transaction that do not depend on each other, sent at once: postgres.js writes them to the
 * connection together and the server runs them one after another, so they cost one round trip (and one socket
 * write) instead of one each (ADR 063). Every one is waited for, so none is still running on the transaction
 * when it ends, and the first failure in the order given is thrown (a refusal listed first wins over a
 * statement that then met the aborted transaction).
 */
export async function together(work: (Promise<unknown> | false | undefined)[]): Promise<void> {
  const settled = await Promise.allSettled(work);
  const failed = settled.find((outcome) => outcome.status === "rejected");
  if (failed) throw failed.reason;
}
