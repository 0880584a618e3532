import type { LoaderFunctionArgs } from "@remix-run/node";

/** The public pages, in the order a visitor meets them. */
const SITEMAP_PATHS = [
  "/",
  "/shop",
  "/feedback",
  "/redeem-key",
  "/find-order",
  "/faqs",
  "/contact",
  "/terms-of-service",
  "/privacy-policy",
] as const;

const escapeXml = (text: string) =>
  text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");

export function loader({ request }: LoaderFunctionArgs) {
  const origin = new URL(request.url).origin;
  const urls = SITEMAP_PATHS.map((path) => `  <url><loc>${escapeXml(origin + path)}</loc></url>`).join("\n");
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return new Response(body, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
