import type { LoaderFunctionArgs } from "@remix-run/node";

/** Account pages and the API are nobody's search result; the sitemap lists what is. */
const PRIVATE_PATHS = ["/v1/", "/dashboard", "/settings", "/balance", "/tickets", "/reset", "/contact/"];

export function loader({ request }: LoaderFunctionArgs) {
  const origin = new URL(request.url).origin;
  const body = [
    "User-agent: *",
    "Allow: /",
    ...PRIVATE_PATHS.map((path) => `Disallow: ${path}`),
    "",
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
