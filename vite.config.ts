import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

/**
 * Contract and form modules define zod schemas beside constants the pages need (QUANTITY_LIMIT, STAR_VALUES):
 * building a schema has no side effect, so marking `= z.…` pure lets the bundler drop every schema a page does
 * not use, and zod stays off the storefront's pages (ADR 032). Rollup cannot tell this by itself.
 */
function zodSchemasArePure(): Plugin {
  return {
    name: "zod-schemas-are-pure",
    transform(code, id) {
      if (id.includes("/node_modules/") || !/\.tsx?$/.test(id) || !code.includes("z.")) return null;
      return { code: code.replace(/(=\s*)z(\s*)\./g, "$1/* @__PURE__ */ z$2."), map: null };
    },
  };
}

export default defineConfig({
  plugins: [
    tailwindcss(),
    remix({
      // BUILD_DIR lets parallel checkouts build side by side; "build" otherwise.
      buildDirectory: process.env.BUILD_DIR ?? "build",
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
    tsconfigPaths(),
    zodSchemasArePure(),
  ],
  build: {
    assetsInlineLimit: 0,
    modulePreload: false,
  },
});
