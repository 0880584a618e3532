import { Link } from "@remix-run/react";
import { Logo } from "./logo";
import { SocialIcon } from "./social-icon";

export type FooterSocialLink = { _id: string; name: string; link: string };

const pages = [
  { to: "/", label: "Home" },
  { to: "/shop", label: "Shop" },
  { to: "/feedback", label: "Feedback" },
  { to: "/redeem-key", label: "Redeem Key" },
  { to: "/find-order", label: "Find Order" },
  { to: "/faqs", label: "FAQ" },
  { to: "/contact", label: "Contact" },
  { to: "/terms-of-service", label: "Terms of Service" },
  { to: "/privacy-policy", label: "Privacy Policy" },
];

const accountPages = [
  { to: "/login", label: "Sign In" },
  { to: "/signup", label: "Create Account" },
];

export type FooterLite = { on: boolean; reason: "switch" | "save-data" | null };

/** A plain form, so the next page loads whole: with scripts, or without any. */
function LiteSwitch({ lite, here }: { lite: FooterLite; here: string }) {
  return (
    <form method="post" action="/lite" className="flex flex-wrap items-center justify-center gap-2 text-sm">
      <input type="hidden" name="redirectTo" value={here} />
      <span className="text-slate-600">
        Lite mode {lite.on ? "is on: pages load without JavaScript" : "loads pages without JavaScript"}
        {lite.reason === "save-data" ? " (your browser asks to save data)" : ""}.
      </span>
      {lite.reason !== "save-data" && (
        <button
          type="submit"
          name="lite"
          value={lite.on ? "off" : "on"}
          className="rounded-md border border-slate-300 px-2 py-1 font-medium text-slate-700 hover:bg-slate-100"
        >
          {lite.on ? "Turn Lite mode off" : "Turn Lite mode on"}
        </button>
      )}
    </form>
  );
}

export function SiteFooter({
  socialLinks,
  loggedIn = false,
  lite,
  here,
  year,
}: {
  socialLinks: FooterSocialLink[];
  loggedIn?: boolean;
  lite: FooterLite;
  here: string;
  year: number;
}) {
  const links = loggedIn ? pages : [...pages, ...accountPages];
  return (
    <footer className="mt-16 border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-8 md:flex-row md:items-start md:justify-between">
        <div className="flex flex-col gap-3">
          <Logo />
          {socialLinks.length > 0 && (
            <ul aria-label="Social media" className="flex flex-wrap gap-2">
              {socialLinks.map((social) => (
                <li key={social._id}>
                  <a
                    href={social.link}
                    target="_blank"
                    rel="noopener noreferrer"
                    aria-label={`${social.name} (opens in a new tab)`}
                    className="flex items-center gap-2 rounded-full bg-slate-100 px-3 py-2 text-sm font-medium text-slate-700 hover:bg-brand-50 hover:text-brand-700"
                  >
                    <SocialIcon name={social.name} />
                    <span>{social.name}</span>
                  </a>
                </li>
              ))}
            </ul>
          )}
        </div>
        <nav aria-label="Footer">
          <ul className="grid grid-cols-2 gap-x-8 gap-y-2 text-sm sm:grid-cols-3">
            {links.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="text-slate-600 hover:text-brand-700 hover:underline">
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="flex flex-col gap-3 border-t border-slate-100 px-4 py-4">
        <LiteSwitch lite={lite} here={here} />
        <p className="text-center text-sm text-slate-500">© {year} Store</p>
      </div>
    </footer>
  );
}
