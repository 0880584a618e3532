const reasons = [
  { title: "Instant delivery", text: "Your credentials appear the moment the payment clears, day or night." },
  {
    title: "Warranty with replacements",
    text: "If an account stops working during its warranty, request a replacement from the order.",
  },
  {
    title: "Everything in one place",
    text: "Orders, credentials, balance and support tickets stay in your dashboard.",
  },
  { title: "Support around the clock", text: "Open a ticket from any order and talk to our team 24/7." },
];

/** The sign-up page's case for an account. */
export function WhyChoose() {
  return (
    <aside aria-labelledby="why-choose" className="flex-1 rounded-xl bg-brand-50 p-6">
      <h2 id="why-choose" className="mb-4 text-xl font-bold">
        Why choose us?
      </h2>
      <ul className="flex flex-col gap-4">
        {reasons.map((reason) => (
          <li key={reason.title}>
            <p className="font-semibold">{reason.title}</p>
            <p className="text-sm text-slate-700">{reason.text}</p>
          </li>
        ))}
      </ul>
    </aside>
  );
}
