import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import {
  MAX_SAVED_SPINS,
  NO_SPINS_MESSAGE,
  SLOT_COUPON_DAYS,
  SLOT_DISCOUNTS,
  SLOT_SYMBOLS,
  type SlotOutcome,
  type SlotSymbolId,
  slotOdds,
  slotSymbol,
} from "../../contract/slots";
import { RouteDialog } from "~/components/dialog";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { CopyField } from "~/components/order/copy-field";
import { IDLE_SYMBOLS, Reels, landReels, loopReels, stopReels } from "~/components/slots/reels";
import { SlotCoupons, couponExpiry } from "~/components/slots/slot-coupons";
import { SlotSymbolIcon, SlotSymbolSprite } from "~/components/slots/symbols";
import { requireUser } from "~/lib/session.server";
import { listSlotCoupons, readSpin, readSpinBalance, spinOnce } from "~/lib/slots.server";
import { redirectWithError } from "~/lib/toast.server";
import { TitledSection } from "~/components/titled-section";

export const meta: MetaFunction = () => [{ title: "Lucky Slots | Store" }];

/*
 * The daily slots game (ADR 022). A spin is a plain form post; the action redirects to /slots?spin={id},
 * whose loader reads that spin back, so without JavaScript the result page shows the three symbols and the
 * coupon. With JS the reels spin from the click and land on the server's symbols before the dialog opens.
 */

const SLOTS_PAGE = "/slots";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const spinId = new URL(request.url).searchParams.get("spin");
  const [balance, coupons, result] = await Promise.all([
    readSpinBalance(context, request),
    listSlotCoupons(context, request),
    spinId ? readSpin(context, request, spinId) : null,
  ]);
  return { balance, coupons, result };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireUser(request, context);
  const spun = await spinOnce(context, request);
  if (!spun.ok) return redirectWithError(context, SLOTS_PAGE, spun.message);
  return redirect(`${SLOTS_PAGE}?${new URLSearchParams({ spin: spun.payload.spinId })}`);
}

const RESULT_TITLES: Record<SlotOutcome, (discount: number) => string> = {
  jackpot: (discount) => `Jackpot! ${discount}% off`,
  pair: (discount) => `Two of a kind: ${discount}% off`,
  none: (discount) => `You won ${discount}% off`,
};
const nextSpinTime = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: "UTC",
});
const percent = (chance: number) => `${(chance * 100).toFixed(2)}%`;

function prefersReducedMotion(): boolean {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * The reels with JS: spinning from the click until the spin's page has loaded and the reels have landed on
 * the drawn symbols; then the dialog shows. A refused spin (a toast) stops them where they were.
 */
function useSpinAnimation(resultSpinId: string | undefined, resultSymbols: SlotSymbolId[] | undefined) {
  const navigation = useNavigation();
  const strips = useRef<(HTMLDivElement | null)[]>([]);
  const started = useRef({ at: 0, spinId: undefined as string | undefined, navigated: false });
  const [spinning, setSpinning] = useState(false);
  // The last symbols drawn stay on the reels after the dialog is closed.
  const [kept, setKept] = useState<SlotSymbolId[]>(resultSymbols ?? IDLE_SYMBOLS);
  if (resultSymbols && resultSymbols.join() !== kept.join()) setKept(resultSymbols);

  function start() {
    if (prefersReducedMotion()) return;
    started.current = { at: performance.now(), spinId: resultSpinId, navigated: false };
    setSpinning(true);
    loopReels(strips);
  }

  useEffect(() => {
    if (navigation.state !== "idle") {
      started.current.navigated = true;
      return;
    }
    if (!spinning || !started.current.navigated) return;
    started.current.navigated = false;
    const drawn = resultSpinId !== undefined && resultSpinId !== started.current.spinId ? resultSymbols : undefined;
    const settled = drawn
      ? landReels(strips, drawn, performance.now() - started.current.at)
      : Promise.resolve(stopReels(strips));
    void settled.then(() => setSpinning(false));
  }, [navigation.state, spinning, resultSpinId, resultSymbols]);

  return { strips, spinning, shown: resultSymbols ?? kept, start };
}

export default function SlotsPage() {
  const { balance, coupons, result } = useLoaderData<typeof loader>();
  const { strips, spinning: busy, shown, start } = useSpinAnimation(result?.spinId, result?.symbols);
  const noSpins = balance.spinsAvailable === 0;
  // While the reels turn, the new coupon stays out of the list: it would tell the result before they stop.
  const listed = busy && result ? coupons.filter((coupon) => coupon.code !== result.couponCode) : coupons;
  const odds = slotOdds();

  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-8 px-4 py-10">
      <SlotSymbolSprite />
      <header className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold">Lucky Slots</h1>
        <p className="text-slate-600">
          One free spin every day (at 00:00 UTC), up to {MAX_SAVED_SPINS} saved. Three equal symbols win{" "}
          {SLOT_DISCOUNTS.jackpot}% off, two equal {SLOT_DISCOUNTS.pair}%, any other spin {SLOT_DISCOUNTS.none}%. The
          coupon is yours alone, for one order within {SLOT_COUPON_DAYS} days.
        </p>
      </header>

      <section aria-label="Slot machine" className="flex flex-col items-center gap-4">
        <Reels symbols={shown} strips={strips} busy={busy} />
        <p className="text-lg">
          Spins available:{" "}
          <strong data-testid="spins-available">
            {balance.spinsAvailable} of {balance.maxSpins}
          </strong>
        </p>
        <Form method="post" action={SLOTS_PAGE} preventScrollReset onSubmit={start}>
          <button
            type="submit"
            disabled={noSpins || busy}
            className="rounded-full bg-red-600 px-10 py-3 text-xl font-bold text-white shadow hover:bg-red-700 disabled:cursor-not-allowed disabled:opacity-50"
          >
            {busy ? "Spinning…" : "Spin"}
          </button>
        </Form>
        {noSpins && !busy && (
          <p role="alert" className="max-w-md text-center font-semibold text-red-700" data-testid="no-spins">
            {NO_SPINS_MESSAGE}
          </p>
        )}
        {balance.nextSpinAt && (
          <p className="text-sm text-slate-600">
            Next free spin: {nextSpinTime.format(new Date(balance.nextSpinAt))} UTC
          </p>
        )}
      </section>

      <TitledSection id="coupons" title="Your coupons">
        {listed.length === 0 ? (
          <p className="text-slate-600">No unused coupons. Spin to win one.</p>
        ) : (
          <SlotCoupons coupons={listed} />
        )}
        <p className="text-sm text-slate-600">
          Use a coupon in the cart&apos;s Coupon Code field at checkout.{" "}
          <Link to="/shop" className="font-semibold text-brand-700 underline">
            Go to the shop
          </Link>
        </p>
      </TitledSection>

      <details className="rounded-xl border border-slate-200 bg-white p-4">
        <summary className="cursor-pointer font-semibold">The odds</summary>
        <p className="mt-2 text-sm text-slate-700">
          Each reel stops on one of 128 positions at random, drawn by the server; a symbol holds more positions the more
          common it is. Three equal: {percent(odds.jackpot)}; two equal: {percent(odds.pair)}; all different:{" "}
          {percent(odds.none)}. On average a spin wins {odds.expectedDiscount.toFixed(2)}% off.
        </p>
        <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {SLOT_SYMBOLS.map((symbol) => (
            <li key={symbol.id} className="flex items-center gap-1">
              <SlotSymbolIcon id={symbol.id} className="h-5 w-5" /> {symbol.label} {symbol.weight}/128
            </li>
          ))}
        </ul>
      </details>

      {result && !busy && (
        <RouteDialog title={RESULT_TITLES[result.outcome](result.discount)} closeHref={SLOTS_PAGE}>
          <div className="flex flex-col gap-4" data-testid="spin-result">
            <p
              className="flex justify-center gap-3"
              role="img"
              aria-label={`Symbols: ${result.symbols.map((symbol) => slotSymbol(symbol).label).join(", ")}`}
            >
              {result.symbols.map((symbol, reel) => (
                <SlotSymbolIcon key={reel} id={symbol} className="h-14 w-14" />
              ))}
            </p>
            <p className="text-center text-2xl font-bold" data-testid="spin-discount">
              {result.discount}% off
            </p>
            <CopyField label="Coupon code" value={result.couponCode} />
            <p className="text-sm text-slate-600">
              {result.couponUsed
                ? "Already used for an order."
                : `For your account only, one order, until ${couponExpiry(result.couponExpiresAt)}.`}
            </p>
            <p data-testid="spins-left">Spins left: {balance.spinsAvailable}</p>
            <Link
              to="/shop"
              className="self-start rounded-lg bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700"
            >
              Shop now
            </Link>
          </div>
        </RouteDialog>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
