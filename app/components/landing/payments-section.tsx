import type { ReactNode } from "react";
import { LandingSection } from "./landing-section";

/** Drawn rather than typed: the ₿ character is missing from many system fonts. */
const bitcoinMark = (
  <svg
    viewBox="0 0 24 24"
    className="size-7"
    fill="none"
    stroke="currentColor"
    strokeWidth="2.2"
    strokeLinecap="round"
    strokeLinejoin="round"
  >
    <path d="M8 6h6a3 3 0 0 1 0 6H8zM8 12h7a3 3 0 0 1 0 6H8zM8 6v12M10 3.5V6M13.5 3.5V6M10 18v2.5M13.5 18v2.5" />
  </svg>
);

type MethodCard = { name: string; symbol: ReactNode; note: string; tint: string };

/** How each gateway of the checkout is shown here; a gateway the store does not know yet shows its own label. */
const CARDS: Partial<Record<string, Omit<MethodCard, "name"> & { name?: string }>> = {
  coinbase: {
    name: "Crypto",
    symbol: bitcoinMark,
    note: "Bitcoin, Ethereum, Litecoin",
    tint: "bg-amber-100 text-amber-800",
  },
  shoppy: { name: "PayPal", symbol: "P", note: "PayPal balance or linked card", tint: "bg-sky-100 text-sky-800" },
  stripe: { name: "Card", symbol: "▭", note: "Visa, Mastercard and more", tint: "bg-indigo-100 text-indigo-800" },
  balance: {
    name: "Store balance",
    symbol: "$",
    note: "Top it up once signed in",
    tint: "bg-emerald-100 text-emerald-800",
  },
  sandbox: { name: "Sandbox", symbol: "✓", note: "Test payments, no money moves", tint: "bg-slate-200 text-slate-800" },
};

export type LandingGateway = { name: string; label: string };

/** The methods this store's checkout offers now (issue 38: never a gateway that is off). */
export function PaymentsSection({ gateways }: { gateways: readonly LandingGateway[] }) {
  const cards: MethodCard[] = gateways.map((gateway) => {
    const known = CARDS[gateway.name];
    return known
      ? { ...known, name: known.name ?? gateway.label }
      : { name: gateway.label, symbol: gateway.label.slice(0, 1), note: "", tint: "bg-slate-200 text-slate-800" };
  });
  return (
    <LandingSection id="payments" className="bg-slate-50">
      <div className="mx-auto w-full max-w-5xl text-center">
        <h2 id="payments-title" className="text-3xl font-bold tracking-tight text-ink sm:text-4xl">
          Pay the way you like
        </h2>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-slate-600">
          {cards.length > 0
            ? `Checkout takes ${listOf(cards.map((card) => card.name))}.`
            : "Payment methods are shown at checkout."}
        </p>
        <ul className="mt-10 flex flex-wrap justify-center gap-4" data-testid="payment-methods">
          {cards.map((method) => (
            <li key={method.name} className="w-40 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:w-52">
              <span
                aria-hidden="true"
                className={`mx-auto grid size-14 place-items-center rounded-full text-2xl font-bold ${method.tint}`}
              >
                {method.symbol}
              </span>
              <p className="mt-4 font-semibold text-ink">{method.name}</p>
              {method.note && <p className="mt-1 text-sm text-slate-600">{method.note}</p>}
            </li>
          ))}
        </ul>
      </div>
    </LandingSection>
  );
}

/** "a", "a and b", "a, b and c". */
function listOf(names: string[]) {
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}
