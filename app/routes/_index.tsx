import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { z } from "zod";
import { AnnouncementBanner } from "~/components/landing/announcement-banner";
import { CtaSection } from "~/components/landing/cta-section";
import { FaqSection } from "~/components/landing/faq-section";
import { FeaturesSection } from "~/components/landing/features-section";
import { HeroSection } from "~/components/landing/hero-section";
import { ANNOUNCEMENT_KEY_PATTERN, cookiesOf } from "~/lib/cookies.server";
import { announcementKey, featuredProducts } from "~/lib/landing-data.server";
import { PaymentsSection } from "~/components/landing/payments-section";
import { SectionDots } from "~/components/landing/section-dots";
import { useSectionScroller } from "~/components/landing/use-section-scroller";
import { pageMeta } from "~/components/legal/page-meta";
import { listCategories, listProducts } from "~/lib/catalogue.server";
import { readAnnouncement, readFaqs } from "~/lib/content.server";
import { listEnabledGateways } from "~/lib/orders.server";
import { requireAnonymous } from "~/lib/session.server";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { hideChrome: "footer" };

const SECTIONS = [
  { id: "hero", label: "Welcome" },
  { id: "features", label: "Why us" },
  { id: "payments", label: "Payments" },
  { id: "faq", label: "FAQ" },
  { id: "cta", label: "Get started" },
] as const;
const SECTION_IDS: readonly string[] = SECTIONS.map((section) => section.id);
/** Leaving the FAQ by wheel or swipe takes a second gesture, so reading it never ends by accident. */
const CONFIRM_LEAVE_IDS: readonly string[] = ["faq"];
const LANDING_FAQ_COUNT = 6;

const dismissSchema = z.object({
  intent: z.literal("dismiss-announcement"),
  announcement: z.string().regex(ANNOUNCEMENT_KEY_PATTERN),
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAnonymous(request, context);
  // The catalogue prefetch is a bonus: a 401 or any failure just leaves it out.
  const [announcement, faqs, products, categories, dismissedKey, gateways] = await Promise.all([
    readAnnouncement(context),
    readFaqs(context),
    listProducts(context, request).catch(() => []),
    listCategories(context, request).catch(() => []),
    cookiesOf(context).announcementDismissed.read(request),
    listEnabledGateways(context),
  ]);
  const key = announcement ? announcementKey(announcement) : null;
  return {
    announcement: announcement && key && key !== dismissedKey ? { text: announcement, key } : null,
    faqs: faqs.slice(0, LANDING_FAQ_COUNT),
    moreFaqs: faqs.length > LANDING_FAQ_COUNT,
    products: featuredProducts(products, categories, 3),
    categories: categories.slice(0, 8).map(({ _id, name }) => ({ _id, name })),
    gateways: gateways.map(({ name, label }) => ({ name, label })),
  };
}

/** Dismissing the announcement without JavaScript: remember it in a cookie and show the page again. */
export async function action({ request, context }: ActionFunctionArgs) {
  const parsed = dismissSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) throw new Response("This form could not be read.", { status: 400 });
  return redirect("/", {
    status: 303,
    headers: { "Set-Cookie": await cookiesOf(context).announcementDismissed.serialize(parsed.data.announcement) },
  });
}

/**
 * Below the site header the first section fills the rest of the first screen, not a whole screen more: otherwise
 * the scroller takes the first gesture for scrolling inside it rather than a move to the next section.
 */
function useHeroFillsFirstScreen() {
  useEffect(() => {
    const hero = document.getElementById(SECTION_IDS[0]);
    if (!hero) return;
    const fit = () => {
      hero.style.minHeight = `calc(100svh - ${hero.offsetTop}px)`;
    };
    fit();
    window.addEventListener("resize", fit);
    return () => window.removeEventListener("resize", fit);
  }, []);
}

export default function Landing() {
  const { announcement, faqs, moreFaqs, products, categories, gateways } = useLoaderData<typeof loader>();
  const { active, enhanced, hint } = useSectionScroller(SECTION_IDS, CONFIRM_LEAVE_IDS);
  useHeroFillsFirstScreen();
  const [announcementClosed, setAnnouncementClosed] = useState(false);

  // The announcement belongs to the first screen: once the visitor moves on, it is done (state
  // adjusted while rendering, as React recommends, rather than one render later in an effect).
  if (active !== 0 && !announcementClosed) setAnnouncementClosed(true);

  const hintText = hint === null ? "" : hint === 1 ? "Swipe down again to continue" : "Swipe up again to go back";

  return (
    <>
      <HeroSection
        announcement={
          announcement && !announcementClosed ? (
            <AnnouncementBanner
              text={announcement.text}
              dismissKey={announcement.key}
              onDismiss={() => setAnnouncementClosed(true)}
            />
          ) : null
        }
      />
      <FeaturesSection enhanced={enhanced} onScreen={active === 1} />
      <PaymentsSection gateways={gateways} />
      <FaqSection faqs={faqs} moreOnFaqPage={moreFaqs} />
      <CtaSection products={products} categories={categories} />

      <SectionDots sections={SECTIONS} active={enhanced ? active : null} />
      <p
        role="status"
        className={`pointer-events-none fixed bottom-6 left-1/2 z-30 -translate-x-1/2 rounded-full bg-slate-900 px-4 py-2 text-sm font-medium text-white shadow-lg ${hintText ? "" : "sr-only"}`}
      >
        {hintText}
      </p>
    </>
  );
}

export const meta: MetaFunction = () =>
  pageMeta({
    title: "Store · Premium subscriptions for less, delivered in seconds",
    description:
      "Streaming, music, gaming, AI and software accounts at the lowest prices: ethically sourced, delivered instantly, with warranty replacements and 24/7 support.",
  });
