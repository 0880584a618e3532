/*
 * What /privacy-policy states about keeping data (issue 29, ADR 044), with the store's configured number of days:
 * the store says it itself, after the operator's editable text, so the promise and the retention job cannot differ.
 */

/** The titles of the sections below: one policy, so the editable text's sections of these titles are not shown. */
export const RETENTION_SECTION_TITLES = ["How long we keep it", "Your rights"] as const;

export function RetentionSections({ days }: { days: number }) {
  const window = days === 1 ? "1 day" : `${days} days`;
  return (
    <>
      <h2 id="how-long-we-keep-it" className="pt-4 text-xl font-semibold text-ink">
        How long we keep it
      </h2>
      <ul className="list-disc space-y-1 pl-6" data-testid="retention">
        <li>
          Paid orders, what was delivered with them and the balance history are kept for the store&rsquo;s books, also
          after you delete your account, but then without your name, email or any address.
        </li>
        <li>Orders that were never paid are deleted {window} after they were placed.</li>
        <li>Accounts made at a guest checkout that was never paid are deleted after {window}.</li>
        <li>Questions sent without an account are deleted {window} after their last message.</li>
        <li>
          IP addresses are removed from orders and sign-in counters after {window}; in the staff&rsquo;s audit log they
          are cut to their network (such as 203.0.113.0/24) after {window}.
        </li>
        <li>
          Ended sessions are deleted {window} after they end; reset codes and sign-in challenges as soon as they expire.
        </li>
        <li>Emails we sent you are deleted from our outbox {window} after they were sent.</li>
      </ul>
      <h2 id="your-rights" className="pt-4 text-xl font-semibold text-ink">
        Your rights
      </h2>
      <ul className="list-disc space-y-1 pl-6">
        <li>Download everything we hold about you at any time: Settings, &ldquo;Download my data&rdquo;.</li>
        <li>
          Delete your account yourself: Settings, &ldquo;Delete my account&rdquo;. You are signed out everywhere and
          your name, email and password are removed at once; a remaining balance is forfeited.
        </li>
        <li>Or open a support ticket and we do either for you.</li>
      </ul>
      <p>
        Every page of the store loads only from the store itself: no third-party scripts, fonts, images or trackers.
      </p>
    </>
  );
}
