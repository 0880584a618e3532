import { Link } from "@remix-run/react";
import { formatUsd } from "~/lib/money";
import { LandingSection } from "./landing-section";

export type CtaProduct = { _id: string; title: string; subtitle: string; minPrice: number };

const FOOTER_LINKS = [
  { to: "/find-order", label: "Find Order" },
  { to: "/redeem-key", label: "Redeem Key" },
  { to: "/faqs", label: "FAQ" },
  { to: "/contact", label: "Contact" },
  { to: "/terms-of-service", label: "Terms of Service" },
  { to: "/privacy-policy", label: "Privacy Policy" },
] as const;

export function CtaSection({
  products,
  categories,
}: {
  products: readonly CtaProduct[];
  categories: readonly { _id: string; name: string }[];
}) {
  return (
    <LandingSection
      id="cta"
      className="bg-brand-700 bg-linear-to-b from-brand-700 to-slate-950 pb-0 text-center text-white"
    >
      <div className="mx-auto my-auto w-full max-w-4xl">
        <h2 id="cta-title" className="text-3xl font-bold tracking-tight sm:text-5xl">
          Ready when you are
        </h2>
        <p className="mx-auto mt-4 max-w-xl text-lg text-slate-100">
          Pick a plan, pay your way, and get your account in seconds. No account needed to buy.
        </p>

        {products.length > 0 && (
          <ul aria-label="Popular right now" className="mt-8 grid gap-3 text-left sm:grid-cols-3">
            {products.map((product) => (
              <li key={product._id}>
                <Link
                  to={`/shop/${product._id}`}
                  className="block h-full rounded-2xl bg-white/10 p-5 ring-1 ring-white/20 hover:bg-white/15 focus-visible:outline-white"
                >
                  <span className="block font-semibold">{product.title}</span>
                  {product.subtitle && <span className="mt-1 block text-sm text-slate-200">{product.subtitle}</span>}
                  <span className="mt-3 block text-sm font-semibold text-white">
                    From {formatUsd(product.minPrice)}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}

        {categories.length > 0 && (
          <nav aria-label="Shop by category" className="mt-8">
            <ul className="flex flex-wrap justify-center gap-2">
              {categories.map((category) => (
                <li key={category._id}>
                  <Link
                    to={`/shop?category=${encodeURIComponent(category._id)}`}
                    className="inline-block rounded-full border border-white/30 px-4 py-1.5 text-sm text-white hover:bg-white/10 focus-visible:outline-white"
                  >
                    {category.name}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        )}

        <Link
          to="/shop"
          className="mt-8 inline-block rounded-xl bg-white px-8 py-3.5 text-lg font-semibold text-ink shadow-lg hover:bg-brand-50 focus-visible:outline-white"
        >
          Go to the shop
        </Link>
      </div>

      <footer className="mt-12 border-t border-white/15 py-6 text-sm text-slate-200">
        <nav aria-label="Footer">
          <ul className="flex flex-wrap justify-center gap-x-6 gap-y-2">
            {FOOTER_LINKS.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="rounded underline-offset-4 hover:underline focus-visible:outline-white">
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <p className="mt-3">© {new Date().getUTCFullYear()} Store</p>
      </footer>
    </LandingSection>
  );
}
