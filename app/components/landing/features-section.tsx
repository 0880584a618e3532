import { useEffect, useState, useSyncExternalStore } from "react";
import { LandingSection } from "./landing-section";
import { FEATURE_RESUME_MS, FEATURE_ROTATE_MS, nextPair } from "./scroller-logic";

const FEATURES = [
  {
    title: "Ethically sourced",
    text: "Every account comes from its provider or an authorised reseller. Never stolen, never cracked.",
    icon: "✓",
  },
  {
    title: "Lowest prices",
    text: "We watch prices every day, so you pay a fraction of the official plans for the same service.",
    icon: "$",
  },
  {
    title: "Instant replacement",
    text: "If an account stops working under warranty, request a replacement and a new one arrives at once.",
    icon: "↻",
  },
  {
    title: "Support around the clock",
    text: "Real people answer tickets 24/7, within 24 hours and usually much sooner.",
    icon: "☎",
  },
] as const;

const PAIR_COUNT = FEATURES.length / 2;
const REDUCED_MOTION = "(prefers-reduced-motion: reduce)";

function subscribeToReducedMotion(onChange: () => void) {
  const query = window.matchMedia(REDUCED_MOTION);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/** The visitor's reduced-motion preference, followed live; the server assumes none. */
function usePrefersReducedMotion() {
  return useSyncExternalStore(
    subscribeToReducedMotion,
    () => window.matchMedia(REDUCED_MOTION).matches,
    () => false,
  );
}

/**
 * Two pairs of feature cards. Without JavaScript all four show. With it, one pair at a time rotates
 * every 6 s while the section is on screen; a manual change holds the rotation for 10 s, and the
 * pause button (or a reduced-motion preference) stops it.
 */
export function FeaturesSection({ enhanced, onScreen }: { enhanced: boolean; onScreen: boolean }) {
  const [pair, setPair] = useState(0);
  const [heldUntil, setHeldUntil] = useState(0);
  // The pause button's choice, once made, outranks the motion preference.
  const prefersReducedMotion = usePrefersReducedMotion();
  const [pausedByChoice, setPausedByChoice] = useState<boolean | null>(null);
  const paused = pausedByChoice ?? prefersReducedMotion;

  useEffect(() => {
    if (!enhanced || !onScreen || paused) return;
    const wait = Math.max(FEATURE_ROTATE_MS, heldUntil - Date.now());
    const timer = setTimeout(() => setPair((current) => nextPair(current, PAIR_COUNT)), wait);
    return () => clearTimeout(timer);
  }, [enhanced, onScreen, paused, pair, heldUntil]);

  const showPair = (step: 1 | -1) => {
    setPair((current) => nextPair(current, PAIR_COUNT, step));
    setHeldUntil(Date.now() + FEATURE_RESUME_MS);
  };

  const controlClass =
    "grid size-10 place-items-center rounded-full border border-slate-300 bg-white text-ink hover:bg-slate-100";

  return (
    <LandingSection id="features" className="bg-white">
      <div className="mx-auto w-full max-w-5xl text-center">
        <h2 id="features-title" className="text-3xl font-bold tracking-tight text-ink sm:text-4xl">
          Why customers stay with us
        </h2>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-slate-600">
          About six years of service and tens of thousands of orders taught us what matters.
        </p>

        <div
          id="feature-cards"
          aria-live={enhanced && !paused ? "off" : "polite"}
          className="mt-10 grid gap-4 text-left sm:grid-cols-2"
        >
          {FEATURES.map((feature, index) => (
            <article
              key={feature.title}
              hidden={enhanced && Math.floor(index / 2) !== pair}
              className="rounded-2xl bg-slate-50 p-6 ring-1 ring-slate-200"
            >
              <span
                aria-hidden="true"
                className="grid size-11 place-items-center rounded-xl bg-brand-700 text-xl font-bold text-white"
              >
                {feature.icon}
              </span>
              <h3 className="mt-4 text-lg font-semibold text-ink">{feature.title}</h3>
              <p className="mt-2 text-slate-600">{feature.text}</p>
            </article>
          ))}
        </div>

        {enhanced && (
          <div className="mt-6 flex items-center justify-center gap-3">
            <button type="button" className={controlClass} aria-controls="feature-cards" onClick={() => showPair(-1)}>
              <span aria-hidden="true">←</span>
              <span className="sr-only">Previous features</span>
            </button>
            <p className="min-w-12 text-sm text-slate-600">
              {pair + 1} / {PAIR_COUNT}
            </p>
            <button type="button" className={controlClass} aria-controls="feature-cards" onClick={() => showPair(1)}>
              <span aria-hidden="true">→</span>
              <span className="sr-only">Next features</span>
            </button>
            <button
              type="button"
              className="ml-2 rounded-full border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-ink hover:bg-slate-100"
              onClick={() => setPausedByChoice(!paused)}
            >
              {paused ? "Resume rotation" : "Pause rotation"}
            </button>
          </div>
        )}
      </div>
    </LandingSection>
  );
}
