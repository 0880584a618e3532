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

/**
 * One card of /shop. Its look is named once in app.css (`.product-card` and its parts): the shop shows dozens of
 * cards, and the same utility list on each made half of the page's HTML (issue 40).
 */
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
      // One discovered card teaches the router every product's route: the others skip the attribute.
      discover={eager ? "render" : "none"}
      className={outOfStock ? "product-card sold-out" : "product-card"}
    >
      {/* The title below names the card: the picture adds nothing to read aloud. */}
      <ProductImage src={product.picture} alt="" eager={eager} inCard />
      {badge && <span className="card-badge">{badge}</span>}
      <div>
        {product.label && <p className="card-label">{product.label}</p>}
        <h3>{product.title}</h3>
        <p className="card-price">
          From <b>{formatUsd(product.minPrice)}</b>
        </p>
        {lowStock && <p className="card-low">{`Only ${product.totalStock} left`}</p>}
        {outOfStock && <p className="card-out">Out of Stock</p>}
      </div>
    </Link>
  );
}
