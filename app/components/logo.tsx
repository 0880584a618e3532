import { Link } from "@remix-run/react";

export function Logo() {
  return (
    <Link to="/" className="flex items-center gap-2 text-lg font-extrabold tracking-tight" aria-label="Store home">
      <span aria-hidden="true" className="grid size-8 place-items-center rounded-lg bg-brand-600 text-white">
        S
      </span>
      <span aria-hidden="true">Store</span>
    </Link>
  );
}
