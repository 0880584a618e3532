import { Link } from "@remix-run/react";
import { formatUsd } from "~/lib/money";
import { ProductImage } from "./product-image";

export type ProductCardData = {
  _id: string;
  title: string;
  label: string;
  picture: string;
  totalStock: number;
  minPrice: number;
};

const LOW_STOCK_LIMIT = 10;

/** 'Semi Private' wins over 'Private', which it contains. */
export function privacyBadge(title: string): "Semi Private" | "Private" | undefined {
  if (/semi[\s-]*private/i.test(title)) return "Semi Private";
  if (/private/i.test(title)) return "Private";
  return undefined;
}

export function ProductCard({
  product,
  href,
  eager = false,
}: {
  product: ProductCardData;
  href: string;
  /** The card is on the first screen: its picture loads at once. */
  eager?: boolean;
}) {
  const outOfStock = product.totalStock <= 0;
  const lowStock = !outOfStock && product.totalStock < LOW_STOCK_LIMIT;
  const badge = privacyBadge(product.title);
  return (
    <Link
      to={href}
      preventScrollReset
      data-testid="product-card"
      className={`group flex h-full flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm transition hover:-translate-y-0.5 hover:shadow-md ${
        outOfStock ? "bg-slate-100" : ""
      }`}
    >
      <div className="relative">
        <ProductImage
          src={product.picture}
          alt={product.title}
          eager={eager}
          className="aspect-video w-full"
          dimmed={outOfStock}
        />
        {badge && (
          <span className="absolute top-1.5 left-1.5 rounded-full bg-violet-600 px-2 py-0.5 text-xs font-semibold text-white sm:top-2 sm:left-2">
            {badge}
          </span>
        )}
      </div>
      <div className="flex flex-1 flex-col gap-1 p-3 sm:p-4">
        {product.label && (
          <p className="truncate text-xs font-semibold tracking-wide text-brand-700 uppercase">{product.label}</p>
        )}
        <h3 className="text-sm font-semibold break-words group-hover:text-brand-700 sm:text-base">{product.title}</h3>
        <p className="mt-auto pt-2 text-sm">
          From <span className="font-bold">{formatUsd(product.minPrice)}</span>
        </p>
        {lowStock && <p className="text-sm font-semibold text-amber-700">{`Only ${product.totalStock} left`}</p>}
        {outOfStock && <p className="text-sm font-semibold text-red-700">Out of Stock</p>}
      </div>
    </Link>
  );
}
