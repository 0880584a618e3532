import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";

export const meta: MetaFunction = () => [{ title: "Store" }];

export default function Landing() {
  return (
    <main className="p-8">
      <h1 className="text-3xl font-bold">Premium accounts, delivered at once</h1>
      <Link to="/shop">Shop</Link>
    </main>
  );
}
