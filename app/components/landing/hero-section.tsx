import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { LandingSection } from "./landing-section";

const STATS = [
  { value: "35,000+", label: "orders delivered" },
  { value: "1,500+", label: "customer reviews" },
  { value: "300+", label: "products" },
] as const;

export function HeroSection({ announcement }: { announcement: ReactNode }) {
  return (
    <LandingSection
      id="hero"
      className="bg-slate-950 bg-[radial-gradient(ellipse_at_top,_#2f44b8_0%,_transparent_60%)] text-center text-white"
    >
      {announcement}
      <div className="mx-auto max-w-3xl">
        <p className="text-sm font-semibold tracking-widest text-brand-50 uppercase">Six years of happy customers</p>
        <h1
          id="hero-title"
          className="mt-3 text-4xl font-extrabold tracking-tight text-balance sm:text-5xl lg:text-6xl"
        >
          Premium subscriptions for less, delivered in seconds
        </h1>
        <p className="mx-auto mt-5 max-w-2xl text-lg text-slate-200">
          Streaming, music, gaming, AI and software accounts: ethically sourced, at the lowest prices, with instant
          replacement under warranty and support around the clock.
        </p>
        <div className="mt-7 flex flex-wrap justify-center gap-3">
          <Link
            to="/shop"
            className="rounded-xl bg-white px-6 py-3 font-semibold text-ink shadow hover:bg-brand-50 focus-visible:outline-white"
          >
            Browse the shop
          </Link>
          <a
            href="#features"
            className="rounded-xl border border-white/40 px-6 py-3 font-semibold text-white hover:bg-white/10 focus-visible:outline-white"
          >
            Why choose us
          </a>
        </div>

        <dl className="mx-auto mt-9 grid max-w-xl grid-cols-3 gap-3 sm:gap-4">
          {STATS.map((stat) => (
            <div
              key={stat.label}
              className="flex flex-col-reverse rounded-2xl bg-white/5 px-2 py-3 ring-1 ring-white/10"
            >
              <dt className="text-xs text-slate-300 sm:text-sm">{stat.label}</dt>
              <dd className="text-2xl font-bold sm:text-3xl">{stat.value}</dd>
            </div>
          ))}
        </dl>
      </div>
    </LandingSection>
  );
}
