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

const PAYMENT_METHODS: readonly { name: string; symbol: ReactNode; note: string; tint: string }[] = [
  { name: "Bitcoin", symbol: bitcoinMark, note: "BTC", tint: "bg-amber-100 text-amber-800" },
  { name: "Ethereum", symbol: "Ξ", note: "ETH", tint: "bg-indigo-100 text-indigo-800" },
  { name: "Litecoin", symbol: "Ł", note: "LTC", tint: "bg-slate-200 text-slate-800" },
  { name: "PayPal", symbol: "P", note: "PayPal balance or linked card", tint: "bg-sky-100 text-sky-800" },
];

export function PaymentsSection() {
  return (
    <LandingSection id="payments" className="bg-slate-50">
      <div className="mx-auto w-full max-w-5xl text-center">
        <h2 id="payments-title" className="text-3xl font-bold tracking-tight text-ink sm:text-4xl">
          Pay the way you like
        </h2>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-slate-600">
          Crypto for privacy, PayPal for convenience. Cards and your store balance work at checkout too.
        </p>
        <ul className="mt-10 grid grid-cols-2 gap-4 sm:grid-cols-4">
          {PAYMENT_METHODS.map((method) => (
            <li key={method.name} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
              <span
                aria-hidden="true"
                className={`mx-auto grid size-14 place-items-center rounded-full text-2xl font-bold ${method.tint}`}
              >
                {method.symbol}
              </span>
              <p className="mt-4 font-semibold text-ink">{method.name}</p>
              <p className="mt-1 text-sm text-slate-600">{method.note}</p>
            </li>
          ))}
        </ul>
      </div>
    </LandingSection>
  );
}
